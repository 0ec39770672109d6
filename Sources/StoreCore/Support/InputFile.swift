import Foundation

/// Reads a file named on a command line, whatever a shell hands over: a regular file, a FIFO,
/// a process substitution (`<(…)`, a `/dev/fd/N` pipe), `/dev/stdin`, or `-` for standard
/// input where the caller allows it.
///
/// Foundation's `Data(contentsOf:)` refuses pipes on some platforms; this reads with POSIX
/// `read` until the end of the input, so every kind of file reads the same way.
public enum InputFile {
    /// The whole contents of the file at `path`; standard input for `-` when
    /// `dashMeansStandardInput`.
    ///
    /// - Throws: ``InputFileError`` saying the file does not exist, is a folder, may not be
    ///   read, or failed while reading.
    public static func read(_ path: String, dashMeansStandardInput: Bool = true) throws(InputFileError) -> Data {
        if path == "-", dashMeansStandardInput {
            return try readToEnd(STDIN_FILENO, path: path)
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw InputFileError(path: path, errorNumber: errno) }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw InputFileError(path: path, reason: .isFolder) }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw InputFileError(path: path, errorNumber: errno) }
        defer { close(descriptor) }
        return try readToEnd(descriptor, path: path)
    }

    /// The contents of the file at `path` as UTF-8 text (invalid bytes replaced).
    public static func readText(_ path: String, dashMeansStandardInput: Bool = true) throws(InputFileError) -> String {
        String(decoding: try read(path, dashMeansStandardInput: dashMeansStandardInput), as: UTF8.self)
    }

    /// Everything `descriptor` gives until its end.
    private static func readToEnd(_ descriptor: Int32, path: String) throws(InputFileError) -> Data {
        var contents = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return contents }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputFileError(path: path, errorNumber: errno)
            }
            contents.append(contentsOf: buffer[..<count])
        }
    }
}
