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

    /// The longest move the store calendar makes: 10,000 years, in seconds.
    private static let storeReach: Double = 10_000 * 366 * 86_400

    /// `date` moved by `amounts` in the store calendar, largest unit first.
    ///
    /// Each amount comes with its rough length in seconds (a year as 366 days, a month as 31), so
    /// that a move of more than 10,000 years, which the calendar cannot represent, ends at
    /// `Date.distantFuture` (or `Date.distantPast` when moving back) instead of overflowing.
    static func storeDate(_ date: Date, moving amounts: [(component: Calendar.Component, value: Int, seconds: Double)]) -> Date {
        let roughLength = amounts.reduce(0) { $0 + Double($1.value) * $1.seconds }
        let outOfRange: Date = roughLength < 0 ? .distantPast : .distantFuture
        guard amounts.allSatisfy({ abs(Double($0.value) * $0.seconds) <= storeReach }) else { return outOfRange }
        var components = DateComponents()
        for amount in amounts {
            components.setValue(amount.value, for: amount.component)
        }
        guard let moved = storeCalendar.date(byAdding: components, to: date) else { return outOfRange }
        return min(max(moved, .distantPast), .distantFuture)
    }

    /// A year's rough length for ``storeDate(_:moving:)``: 366 days, in seconds.
    static let roughSecondsPerYear: Double = 366 * 86_400
    /// A month's rough length for ``storeDate(_:moving:)``: 31 days, in seconds.
    static let roughSecondsPerMonth: Double = 31 * 86_400
    /// A week's length in seconds.
    static let secondsPerWeek: Double = 7 * 86_400
    /// A day's length in seconds.
    static let secondsPerDay: Double = 86_400
}
