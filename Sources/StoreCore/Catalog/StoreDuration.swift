import Foundation

/// A length of store time written as an ISO 8601 duration, such as `P1M`, `P3D`, `PT2H` or `P1DT12H`.
///
/// Use a duration to advance a store clock: ``date(after:)`` adds it in the Gregorian calendar in
/// UTC, so `P1M` after January 31 is the last day of February, and `P1D` is always a calendar day.
/// Values are whole numbers; signs and fractions are not accepted.
public struct StoreDuration: Sendable, Hashable, CustomStringConvertible {
    /// Whole years.
    public var years: Int
    /// Whole months.
    public var months: Int
    /// Whole weeks.
    public var weeks: Int
    /// Whole days.
    public var days: Int
    /// Whole hours.
    public var hours: Int
    /// Whole minutes.
    public var minutes: Int
    /// Whole seconds.
    public var seconds: Int

    /// Creates a duration from its components; components left out are zero.
    public init(years: Int = 0, months: Int = 0, weeks: Int = 0, days: Int = 0,
                hours: Int = 0, minutes: Int = 0, seconds: Int = 0) {
        self.years = years
        self.months = months
        self.weeks = weeks
        self.days = days
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
    }

    /// Parses an ISO 8601 duration (`P[nY][nM][nW][nD][T[nH][nM][nS]]`), or returns `nil` when
    /// `text` is not one: for example `P`, `PT`, `1M`, `P1Q`, `-P1D` or `P1.5D`.
    public init?(iso8601 text: String) {
        guard let parsed = ISO8601DurationComponents(parsing: text) else { return nil }
        self.init()
        for component in parsed.components {
            switch component.designator {
            case .years: years = component.value
            case .months: months = component.value
            case .weeks: weeks = component.value
            case .days: days = component.value
            case .hours: hours = component.value
            case .minutes: minutes = component.value
            case .seconds: seconds = component.value
            }
        }
    }

    /// The duration in ISO 8601 form, zero components left out (`PT0S` for the zero duration).
    public var iso8601: String {
        var text = "P"
        for (value, letter) in [(years, "Y"), (months, "M"), (weeks, "W"), (days, "D")] where value != 0 {
            text += "\(value)\(letter)"
        }
        let time = [(hours, "H"), (minutes, "M"), (seconds, "S")].filter { $0.0 != 0 }
        if !time.isEmpty {
            text += "T" + time.map { "\($0.0)\($0.1)" }.joined()
        }
        return text == "P" ? "PT0S" : text
    }

    /// The ISO 8601 form.
    public var description: String { iso8601 }

    /// The date this duration after `date`, counted in the Gregorian calendar in UTC.
    ///
    /// Calendar components are added from the largest to the smallest, and a day of month that does
    /// not exist in the resulting month becomes that month's last day. A duration of more than
    /// 10,000 years ends at `Date.distantFuture`.
    public func date(after date: Date) -> Date {
        Calendar.storeDate(date, moving: [
            (.year, years, Calendar.roughSecondsPerYear), (.month, months, Calendar.roughSecondsPerMonth),
            (.weekOfYear, weeks, Calendar.secondsPerWeek), (.day, days, Calendar.secondsPerDay),
            (.hour, hours, 3600), (.minute, minutes, 60), (.second, seconds, 1),
        ])
    }
}
