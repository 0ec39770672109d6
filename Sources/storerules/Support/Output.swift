import Foundation
import StoreCore

/// Writing to standard output and standard error.
enum Output {
    /// Writes `text` and a newline to standard output.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes `text` and a newline to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// `value` as compact JSON with sorted keys, or pretty-printed when asked.
    static func json<Value: Encodable>(_ value: Value, pretty: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Reads a whole file — a regular file, a FIFO, `/dev/stdin` or a process substitution —
    /// or standard input for `-`.
    static func read(_ path: String) throws(CommandFailure) -> Data {
        do {
            return try InputFile.read(path)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
