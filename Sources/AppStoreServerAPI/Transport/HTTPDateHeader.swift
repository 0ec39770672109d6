import Foundation
import Synchronization

/// The `Date` header of an HTTP answer (`Thu, 03 Dec 2026 07:10:00 GMT`, RFC 9110's
/// IMF-fixdate): the server's clock, to the second. What the HTTP transport dates its answers
/// with, the local store's App Store Server API too, and what the client reads Apple's time from.
public enum HTTPDateHeader {
    /// The text of the last second ``now`` was asked for, so a busy server writes it once a second.
    private static let cache = Mutex<(second: Int, text: String)>((-1, ""))

    /// Now, as the header writes it.
    public static var now: String {
        let second = time(nil)
        return cache.withLock { cache in
            if cache.second != second { cache = (second, text(second: second)) }
            return cache.text
        }
    }

    /// `date` as the header writes it.
    public static func text(_ date: Date) -> String {
        text(second: time_t(date.timeIntervalSince1970.rounded(.down)))
    }

    /// The time `text` says, or nil when it is not an IMF-fixdate.
    public static func date(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }

    /// The second `second` since 1970 in the header's form, in English whatever the locale.
    private static func text(second: time_t) -> String {
        var second = second
        var parts = tm()
        gmtime_r(&second, &parts)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
    }
}
