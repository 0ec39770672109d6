import CommandLineOptions
import Foundation
import StorePolicy

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

extension TypedOption where Value == Date {
    /// `--as-of METAVAR`: the time a report is as of, as ``ExperimentDate/parseReportTime(_:)``
    /// reads it: a UTC date, an ISO 8601 time, or milliseconds since 1970.
    static func reportTime(_ metavar: String, help: String) -> TypedOption {
        .value("as-of", metavar, help: help) { text throws(UsageError) in
            if let date = ExperimentDate.parseReportTime(text) { return date }
            throw UsageError("--as-of must be a UTC date, an ISO 8601 time or milliseconds since 1970, not '\(text)'")
        }
    }
}
