import Foundation

/// The length of one period of a subscription or a subscription offer, as StoreKit's
/// `Product.SubscriptionPeriod` names it: a positive whole number of days, weeks, months or years.
///
/// `.storekit` files write periods in ISO 8601 form (`P1W`, `P1M`, `P3D`, `P2M`, `P1Y`, `P6M` …);
/// ``init(iso8601:)`` reads that form and ``iso8601`` writes it back.
public struct SubscriptionPeriod: Sendable, Hashable, CustomStringConvertible {
    /// The calendar unit a period counts.
    public enum Unit: String, Sendable, Hashable, CaseIterable {
        /// Calendar days (`D`).
        case day
        /// Weeks of seven days (`W`).
        case week
        /// Calendar months (`M`).
        case month
        /// Calendar years (`Y`).
        case year

        /// The ISO 8601 designator letter for the unit.
        var designator: Character {
            switch self {
            case .day: "D"
            case .week: "W"
            case .month: "M"
            case .year: "Y"
            }
        }
    }

    /// The unit the period counts.
    public let unit: Unit
    /// How many units the period lasts; always at least 1.
    public let value: Int

    /// Creates a period of `value` units, or returns `nil` when `value` is not positive.
    public init?(value: Int, unit: Unit) {
        guard value > 0 else { return nil }
        self.value = value
        self.unit = unit
    }

    /// Parses an ISO 8601 period with a single positive date component (`P1W`, `P1M`, `P3D`, `P1Y` …).
    ///
    /// Returns `nil` for anything else: text that is not ISO 8601 (`P1Q`, `P`, `1M`, `-P1M`), a zero
    /// period (`P0M`), or a duration that is not a whole number of one unit (`P1M2D`, `PT1H`).
    public init?(iso8601 text: String) {
        guard let parsed = ISO8601DurationComponents(parsing: text),
              parsed.components.count == 1, let component = parsed.components.first else { return nil }
        let unit: Unit
        switch component.designator {
        case .days: unit = .day
        case .weeks: unit = .week
        case .months: unit = .month
        case .years: unit = .year
        case .hours, .minutes, .seconds: return nil
        }
        self.init(value: component.value, unit: unit)
    }

    /// The period in ISO 8601 form, such as `P1M`.
    public var iso8601: String { "P\(value)\(unit.designator)" }

    /// The ISO 8601 form.
    public var description: String { iso8601 }

    /// The date `count` periods after `date`, counted in the Gregorian calendar in UTC.
    ///
    /// All periods are added in one step from `date`, so a month-end start stays at the month end
    /// where it can: January 31 plus one month is the last day of February, plus two months is March 31.
    /// A negative `count` counts back. Beyond 10,000 years, the result is `Date.distantFuture` (or
    /// `Date.distantPast` when counting back).
    public func date(after date: Date, count: Int = 1) -> Date {
        let (component, unitSeconds, unitsPerValue): (Calendar.Component, Double, Int) = switch unit {
        case .day: (.day, Calendar.secondsPerDay, 1)
        case .week: (.day, Calendar.secondsPerDay, 7)
        case .month: (.month, Calendar.roughSecondsPerMonth, 1)
        case .year: (.year, Calendar.roughSecondsPerYear, 1)
        }
        let (units, overflow) = value.multipliedReportingOverflow(by: count)
        let (amount, weekOverflow) = units.multipliedReportingOverflow(by: unitsPerValue)
        guard !overflow, !weekOverflow else { return count < 0 ? .distantPast : .distantFuture }
        return Calendar.storeDate(date, moving: [(component, amount, unitSeconds)])
    }
}
