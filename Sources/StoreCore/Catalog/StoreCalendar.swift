import Foundation

extension Calendar {
    /// The calendar in which the store counts subscription periods and durations: Gregorian, in UTC.
    ///
    /// Store dates do not depend on where the host runs, so renewals land on the same instant everywhere.
    static let storeCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        calendar.locale = Locale(identifier: "en_US_POSIX")
        return calendar
    }()
}
