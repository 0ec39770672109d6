import Foundation

/// The `Date` header of an HTTP answer (`Thu, 03 Dec 2026 07:10:00 GMT`, RFC 9110's
/// IMF-fixdate): the server's clock, to the second.
public enum HTTPDateHeader {
    /// `date` as the header writes it.
    public static func text(_ date: Date) -> String {
        formatter.string(from: date)
    }

    /// The time `text` says, or nil when it is not an IMF-fixdate.
    public static func date(_ text: String) -> Date? {
        formatter.date(from: text)
    }

    private static var formatter: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}
