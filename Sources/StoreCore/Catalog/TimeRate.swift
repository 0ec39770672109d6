import Foundation

/// How fast store time passes in the local test store, with the raw values of StoreKit Testing's
/// `SKTestSession.TimeRate` (the `_timeRate` setting of a `.storekit` file).
///
/// There are three families of rates:
/// - ``realTime``, where subscriptions renew on calendar dates;
/// - rates in which a fixed amount of real time is one store day (`oneHourIsOneDay` … `oneSecondIsOneDay`,
///   deprecated by Apple but still found in files);
/// - rates defined by renewal times: `monthlyRenewalEvery…` scale with the period (Apple's tables: a
///   weekly subscription has its own time, N months take N monthly times, a year twelve), and
///   `oneRenewalEvery…` renew every subscription after the same time whatever its period.
///
/// ``realSecondsPerStoreDay`` tells how to accelerate a store clock, and ``renewalInterval(for:)``
/// and ``renewalDate(after:period:count:)`` when a subscription renews.
public enum TimeRate: Int, Sendable, Hashable, CaseIterable {
    /// Store time is real time; subscriptions renew on calendar dates.
    case realTime = 0
    /// One real hour is one store day.
    case oneHourIsOneDay = 1
    /// Thirty real minutes are one store day.
    case thirtyMinutesIsOneDay = 2
    /// Five real minutes are one store day.
    case fiveMinutesIsOneDay = 3
    /// One real minute is one store day.
    case oneMinuteIsOneDay = 4
    /// Thirty real seconds are one store day.
    case thirtySecondsIsOneDay = 5
    /// One real second is one store day.
    case oneSecondIsOneDay = 6
    /// Monthly subscriptions renew every hour (weekly ones every 15 minutes).
    case monthlyRenewalEveryHour = 10
    /// Monthly subscriptions renew every 30 minutes (weekly ones every 10 minutes).
    case monthlyRenewalEveryThirtyMinutes = 11
    /// Monthly subscriptions renew every 15 minutes (weekly ones every 5 minutes).
    case monthlyRenewalEveryFifteenMinutes = 12
    /// Monthly subscriptions renew every 5 minutes (weekly ones every 3 minutes).
    case monthlyRenewalEveryFiveMinutes = 13
    /// Monthly subscriptions renew every 30 seconds (weekly ones every 10 seconds).
    case monthlyRenewalEveryThirtySeconds = 15
    /// Every subscription renews every 15 minutes, whatever its period.
    case oneRenewalEveryFifteenMinutes = 1000
    /// Every subscription renews every 5 minutes, whatever its period.
    case oneRenewalEveryFiveMinutes = 1001
    /// Every subscription renews every minute, whatever its period.
    case oneRenewalEveryMinute = 1002
    /// Every subscription renews every 30 seconds, whatever its period.
    case oneRenewalEveryThirtySeconds = 1003
    /// Every subscription renews every 10 seconds, whatever its period.
    case oneRenewalEveryTenSeconds = 1004
    /// Every subscription renews every 2 seconds, whatever its period.
    case oneRenewalEveryTwoSeconds = 1005

    /// The store rules of this rate, in real seconds.
    private enum Scale {
        /// Calendar time.
        case calendar
        /// A fixed number of real seconds per store day.
        case perDay(TimeInterval)
        /// Real seconds for a weekly and for a monthly renewal.
        case perRenewal(week: TimeInterval, month: TimeInterval)
        /// The same real seconds for every renewal.
        case fixed(TimeInterval)
    }

    private var scale: Scale {
        switch self {
        case .realTime: .calendar
        case .oneHourIsOneDay: .perDay(3600)
        case .thirtyMinutesIsOneDay: .perDay(1800)
        case .fiveMinutesIsOneDay: .perDay(300)
        case .oneMinuteIsOneDay: .perDay(60)
        case .thirtySecondsIsOneDay: .perDay(30)
        case .oneSecondIsOneDay: .perDay(1)
        case .monthlyRenewalEveryHour: .perRenewal(week: 900, month: 3600)
        case .monthlyRenewalEveryThirtyMinutes: .perRenewal(week: 600, month: 1800)
        case .monthlyRenewalEveryFifteenMinutes: .perRenewal(week: 300, month: 900)
        case .monthlyRenewalEveryFiveMinutes: .perRenewal(week: 180, month: 300)
        case .monthlyRenewalEveryThirtySeconds: .perRenewal(week: 10, month: 30)
        case .oneRenewalEveryFifteenMinutes: .fixed(900)
        case .oneRenewalEveryFiveMinutes: .fixed(300)
        case .oneRenewalEveryMinute: .fixed(60)
        case .oneRenewalEveryThirtySeconds: .fixed(30)
        case .oneRenewalEveryTenSeconds: .fixed(10)
        case .oneRenewalEveryTwoSeconds: .fixed(2)
        }
    }

    /// Store days in a nominal month and year, for rates that count in days or months.
    private static let daysPerMonth: Double = 30
    private static let daysPerYear: Double = 365

    /// How many real seconds one store day lasts, to accelerate a store clock.
    ///
    /// 86,400 for ``realTime``; the stated time for the `…IsOneDay` rates; a thirtieth of the monthly
    /// renewal time for the `monthlyRenewalEvery…` rates. `nil` for the `oneRenewalEvery…` rates,
    /// whose renewals do not follow store days.
    public var realSecondsPerStoreDay: TimeInterval? {
        switch scale {
        case .calendar: 86_400
        case .perDay(let seconds): seconds
        case .perRenewal(_, let month): month / Self.daysPerMonth
        case .fixed: nil
        }
    }

    /// How many real seconds one renewal of a subscription with `period` takes at this rate, or
    /// `nil` for ``realTime``, where renewals follow the calendar (see ``renewalDate(after:period:count:)``).
    ///
    /// For the `…IsOneDay` rates a week is 7 store days, a month 30 and a year 365. For the
    /// `monthlyRenewalEvery…` rates, N weeks take N weekly times, N months N monthly times, a year
    /// twelve monthly times, and N days N sevenths of the weekly time.
    public func renewalInterval(for period: SubscriptionPeriod) -> TimeInterval? {
        let count = Double(period.value)
        switch scale {
        case .calendar:
            return nil
        case .perDay(let secondsPerDay):
            let days: Double = switch period.unit {
            case .day: 1
            case .week: 7
            case .month: Self.daysPerMonth
            case .year: Self.daysPerYear
            }
            return count * days * secondsPerDay
        case .perRenewal(let week, let month):
            return switch period.unit {
            case .day: count * week / 7
            case .week: count * week
            case .month: count * month
            case .year: count * 12 * month
            }
        case .fixed(let seconds):
            return seconds
        }
    }

    /// The real date on which a subscription started at `start` with `period` reaches the end of its
    /// `count`-th period at this rate: calendar arithmetic for ``realTime``, else `start` plus `count`
    /// renewal intervals.
    public func renewalDate(after start: Date, period: SubscriptionPeriod, count: Int = 1) -> Date {
        guard let interval = renewalInterval(for: period) else {
            return period.date(after: start, count: count)
        }
        return start.addingTimeInterval(interval * Double(count))
    }
}
