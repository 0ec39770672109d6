import Foundation
import StoreCore

/// How store time maps to clock time under a ``TimeRate``: when periods end, how long the
/// billing grace period and billing retry last, and how far ``LocalStore/advance(by:)`` moves
/// the clock.
///
/// - Real time follows the calendar.
/// - Rates with store days (`…IsOneDay`, `monthlyRenewalEvery…`) scale every store day to
///   ``TimeRate/realSecondsPerStoreDay``.
/// - Rates of one renewal every so often (`oneRenewalEvery…`) count thirty store days as one
///   renewal interval, so advancing by `P1M` moves through one renewal.
///
/// The billing grace period lasts 6 store days for subscriptions renewing more often than
/// monthly and 16 store days otherwise; billing retry lasts 60 store days after the renewal
/// failed (StoreKit Testing's real-time values).
struct StoreTimeline {
    let rate: TimeRate

    static let billingRetryDays: Double = 60
    static let shortGracePeriodDays: Double = 6
    static let gracePeriodDays: Double = 16
    private static let daysPerRenewalAtFixedRates: Double = 30
    private static let monthly = SubscriptionPeriod(iso8601: "P1M")

    /// The end of `count` periods of `period` starting at `start`.
    func end(of period: SubscriptionPeriod, from start: Date, count: Int = 1) -> Date {
        rate.renewalDate(after: start, period: period, count: count)
    }

    /// The date `duration` of store time after `date`: calendar arithmetic in real time; at
    /// an accelerated rate, the duration in store days (a year 365, a month 30, a week 7, as
    /// ``TimeRate`` counts them) scaled to the rate.
    func date(after duration: StoreDuration, from date: Date) -> Date {
        guard rate != .realTime else { return duration.date(after: date) }
        let days = Double(duration.years) * 365 + Double(duration.months) * 30 + Double(duration.weeks) * 7
            + Double(duration.days)
        let seconds = Double(duration.hours) * 3600 + Double(duration.minutes) * 60 + Double(duration.seconds)
        return date.addingTimeInterval((days + seconds / 86_400) * secondsPerStoreDay)
    }

    /// The store months from `start` to `end` (negative when `end` comes first): in real time,
    /// days over the Gregorian calendar's mean month (30.436875 days); at an accelerated rate,
    /// store days over thirty.
    func months(from start: Date, to end: Date) -> Double {
        let seconds = end.timeIntervalSince(start)
        guard rate != .realTime else { return seconds / 86_400 / Self.meanGregorianMonthDays }
        return seconds / secondsPerStoreDay / Self.daysPerRenewalAtFixedRates
    }

    private static let meanGregorianMonthDays = 30.436875

    /// When the billing grace period of a renewal of `period` that failed at `failure` ends.
    func gracePeriodEnd(after failure: Date, period: SubscriptionPeriod?) -> Date {
        let days = period?.unit == .day || period?.unit == .week ? Self.shortGracePeriodDays : Self.gracePeriodDays
        return later(failure, byStoreDays: days)
    }

    /// When billing retry of a renewal that failed at `failure` ends.
    func billingRetryEnd(after failure: Date) -> Date {
        later(failure, byStoreDays: Self.billingRetryDays)
    }

    private func later(_ date: Date, byStoreDays days: Double) -> Date {
        guard rate != .realTime else {
            return StoreDuration(days: Int(days)).date(after: date)
        }
        return date.addingTimeInterval(days * secondsPerStoreDay)
    }

    /// Clock seconds per store day at an accelerated rate.
    private var secondsPerStoreDay: TimeInterval {
        if let seconds = rate.realSecondsPerStoreDay { return seconds }
        return (Self.monthly.flatMap(rate.renewalInterval(for:)) ?? 86_400 * Self.daysPerRenewalAtFixedRates)
            / Self.daysPerRenewalAtFixedRates
    }
}
