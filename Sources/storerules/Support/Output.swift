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

    /// One answer of a command: `value` as one line of JSON when `json`, in signed payloads'
    /// form (sorted keys, dates as milliseconds since 1970: ``SignedPayloadJSON``), otherwise
    /// `text`'s lines.
    static func answer(_ value: some Encodable, json: Bool, text: () -> [String]) {
        if json {
            let data = (try? SignedPayloadJSON.makeEncoder().encode(value)) ?? Data("{}".utf8)
            line(String(decoding: data, as: UTF8.self))
        } else {
            line(text().joined(separator: "\n"))
        }
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
