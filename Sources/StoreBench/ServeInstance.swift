import Foundation

/// A `storerules serve` process for a benchmark, on a free loopback port.
final class ServeInstance {
    /// `http://127.0.0.1:PORT`.
    let url: String
    private let process: Process

    /// Starts `executable serve arguments… --listen 127.0.0.1:0` and waits for its address.
    init(executable: URL, arguments: [String]) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = ["serve"] + arguments + ["--listen", "127.0.0.1:0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                process.waitUntilExit()
                throw BenchFailure("storerules serve exited with \(process.terminationStatus) before it listened")
            }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"http://[0-9.:]+"#, options: .regularExpression) else {
            throw BenchFailure("storerules serve said: \(text)")
        }
        url = String(text[range])
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}
