import Foundation
import StoreCore

/// The times an experiment's window and its report's date are written in: a UTC date
/// (`2026-12-10`, its midnight) or an RFC 3339 time with a zone (`2026-12-10T09:00:00Z`,
/// fractions of a second allowed); a report's date may also be epoch milliseconds.
public enum ExperimentDate {
    /// The time `text` names, or nil when it is neither form.
    public static func parse(_ text: String) -> Date? {
        if text.utf8.count == 10, let date = try? Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day().parse(text) {
            return date
        }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }

    /// The time a report is asked for as of: epoch milliseconds, or a form ``parse(_:)``
    /// reads; nil for anything else.
    public static func parseReportTime(_ text: String) -> Date? {
        if let milliseconds = Int64(text) { return Date(millisecondsSince1970: milliseconds) }
        return parse(text)
    }
}
