import Foundation
import Testing
@testable import StoreCore

@Suite struct CatalogTimeRateTests {
    private let week = SubscriptionPeriod(value: 1, unit: .week)!
    private let month = SubscriptionPeriod(value: 1, unit: .month)!
    private let twoMonths = SubscriptionPeriod(value: 2, unit: .month)!
    private let quarter = SubscriptionPeriod(value: 3, unit: .month)!
    private let halfYear = SubscriptionPeriod(value: 6, unit: .month)!
    private let year = SubscriptionPeriod(value: 1, unit: .year)!

    @Test func rawValuesMatchStoreKitTesting() {
        #expect(TimeRate.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 15, 1000, 1001, 1002, 1003, 1004, 1005])
        #expect(TimeRate(rawValue: 14) == nil)
    }

    @Test func monthlyRenewalEveryThirtySecondsFollowsAppleTable() {
        let rate = TimeRate.monthlyRenewalEveryThirtySeconds
        #expect([week, month, twoMonths, quarter, halfYear, year].map { rate.renewalInterval(for: $0) } == [10, 30, 60, 90, 180, 360])
        #expect(rate.realSecondsPerStoreDay == 1)
    }

    @Test func monthlyRenewalEveryHourFollowsAppleTable() {
        let rate = TimeRate.monthlyRenewalEveryHour
        #expect([week, month, twoMonths, quarter, halfYear, year].map { rate.renewalInterval(for: $0) }
            == [900, 3600, 7200, 10_800, 21_600, 43_200])
    }

    @Test func monthlyRenewalEveryFifteenMinutesFollowsAppleTable() {
        let rate = TimeRate.monthlyRenewalEveryFifteenMinutes
        #expect([week, month, twoMonths, quarter, halfYear, year].map { rate.renewalInterval(for: $0) }
            == [300, 900, 1800, 2700, 5400, 10_800])
    }

    @Test func monthlyRenewalEveryFiveMinutesFollowsAppleTable() {
        let rate = TimeRate.monthlyRenewalEveryFiveMinutes
        #expect([week, month, year].map { rate.renewalInterval(for: $0) } == [180, 300, 3600])
    }

    @Test func fixedRatesRenewEveryPeriodAlike() {
        for period in [week, month, year] {
            #expect(TimeRate.oneRenewalEveryTwoSeconds.renewalInterval(for: period) == 2)
            #expect(TimeRate.oneRenewalEveryFifteenMinutes.renewalInterval(for: period) == 900)
        }
        #expect(TimeRate.oneRenewalEveryTenSeconds.realSecondsPerStoreDay == nil)
    }

    @Test func dayRatesScaleStoreDays() {
        #expect(TimeRate.oneSecondIsOneDay.realSecondsPerStoreDay == 1)
        #expect(TimeRate.oneSecondIsOneDay.renewalInterval(for: month) == 30)
        #expect(TimeRate.oneHourIsOneDay.renewalInterval(for: week) == 25_200)
    }

    @Test func realTimeRenewsOnCalendarDates() {
        let start = Calendar.storeCalendar.date(from: DateComponents(year: 2024, month: 1, day: 31))!
        #expect(TimeRate.realTime.realSecondsPerStoreDay == 86_400)
        #expect(TimeRate.realTime.renewalInterval(for: month) == nil)
        #expect(TimeRate.realTime.renewalDate(after: start, period: month) == month.date(after: start))
    }

    @Test func acceleratedRatesRenewAfterFixedIntervals() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(TimeRate.monthlyRenewalEveryThirtySeconds.renewalDate(after: start, period: year, count: 2)
            == start.addingTimeInterval(720))
    }
}
