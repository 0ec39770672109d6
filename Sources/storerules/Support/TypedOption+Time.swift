import CommandLineOptions
import Foundation

extension TypedOption where Value == Date {
    /// `--name TIME`: an ISO 8601 time, or whole milliseconds since 1970 as App Store payloads
    /// write times.
    static func time(_ name: String, help: String) -> TypedOption {
        .value(name, "TIME", help: help) { text throws(UsageError) in
            if let milliseconds = Int64(text) { return Date(millisecondsSince1970: milliseconds) }
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw UsageError("--\(name) must be an ISO 8601 time or milliseconds since 1970, not '\(text)'")
            }
            return date
        }
    }
}
