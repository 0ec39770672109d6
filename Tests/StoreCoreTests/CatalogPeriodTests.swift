import Foundation
import Testing
@testable import StoreCore

@Suite struct CatalogPeriodTests {
    private static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Date {
        Calendar.storeCalendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    @Test(arguments: [
        ("P1W", 1, SubscriptionPeriod.Unit.week), ("P1M", 1, .month), ("P3D", 3, .day), ("P2M", 2, .month),
        ("P1Y", 1, .year), ("P6M", 6, .month), ("P2W", 2, .week), ("P3M", 3, .month),
    ])
    func subscriptionPeriodsParse(text: String, value: Int, unit: SubscriptionPeriod.Unit) throws {
        let period = try #require(SubscriptionPeriod(iso8601: text))
        #expect(period.value == value)
        #expect(period.unit == unit)
        #expect(period.iso8601 == text)
    }

    @Test(arguments: ["P1Q", "P", "1M", "-P1M", "P-1M", "P0M", "P0D", "PT1H", "P1M2D", "p1m", "P1.5M", "", "P1", "PM",
                      "P1MT", "P1M ", " P1M", "P99999999999999999999M"])
    func malformedSubscriptionPeriodsAreRejected(text: String) {
        #expect(SubscriptionPeriod(iso8601: text) == nil)
    }

    @Test func periodsMustBePositive() {
        #expect(SubscriptionPeriod(value: 0, unit: .month) == nil)
        #expect(SubscriptionPeriod(value: -1, unit: .day) == nil)
    }

    @Test func oneMonthAfterJanuaryThirtyFirstIsTheEndOfFebruary() throws {
        let month = try #require(SubscriptionPeriod(iso8601: "P1M"))
        #expect(month.date(after: Self.utc(2024, 1, 31)) == Self.utc(2024, 2, 29))
        #expect(month.date(after: Self.utc(2023, 1, 31)) == Self.utc(2023, 2, 28))
        #expect(month.date(after: Self.utc(2024, 1, 31, 23, 30)) == Self.utc(2024, 2, 29, 23, 30))
    }

    @Test func severalPeriodsAreCountedFromTheStart() throws {
        let month = try #require(SubscriptionPeriod(iso8601: "P1M"))
        #expect(month.date(after: Self.utc(2024, 1, 31), count: 2) == Self.utc(2024, 3, 31))
        #expect(month.date(after: Self.utc(2024, 1, 31), count: 3) == Self.utc(2024, 4, 30))
        #expect(month.date(after: Self.utc(2024, 3, 31), count: -1) == Self.utc(2024, 2, 29))
        #expect(month.date(after: Self.utc(2024, 1, 31), count: 0) == Self.utc(2024, 1, 31))
    }

    @Test func daysWeeksAndYearsAdvanceByTheCalendar() throws {
        let start = Self.utc(2024, 2, 29, 12)
        #expect(try #require(SubscriptionPeriod(iso8601: "P3D")).date(after: start) == Self.utc(2024, 3, 3, 12))
        #expect(try #require(SubscriptionPeriod(iso8601: "P1W")).date(after: start) == Self.utc(2024, 3, 7, 12))
        #expect(try #require(SubscriptionPeriod(iso8601: "P2W")).date(after: start, count: 2) == Self.utc(2024, 3, 28, 12))
        #expect(try #require(SubscriptionPeriod(iso8601: "P1Y")).date(after: start) == Self.utc(2025, 2, 28, 12))
        #expect(try #require(SubscriptionPeriod(iso8601: "P6M")).date(after: start) == Self.utc(2024, 8, 29, 12))
    }

    @Test func movesBeyondTheCalendarEndInTheDistantFutureOrPast() throws {
        let start = Self.utc(2024, 1, 1)
        let hugeYears = try #require(SubscriptionPeriod(value: Int.max / 2, unit: .year))
        #expect(hugeYears.date(after: start, count: 4) == .distantFuture)
        #expect(hugeYears.date(after: start) == .distantFuture)
        #expect(hugeYears.date(after: start, count: -1) == .distantPast)
        let maxMonths = try #require(SubscriptionPeriod(value: Int.max, unit: .month))
        #expect(maxMonths.date(after: start) == .distantFuture)
        let maxWeeks = try #require(SubscriptionPeriod(value: Int.max / 3, unit: .week))
        #expect(maxWeeks.date(after: start) == .distantFuture)
        #expect(StoreDuration(years: Int.max).date(after: start) == .distantFuture)
        #expect(StoreDuration(seconds: Int.max).date(after: start) == .distantFuture)
        #expect(try #require(StoreDuration(iso8601: "P9223372036854775807D")).date(after: start) == .distantFuture)
        #expect(StoreDuration(years: 5000).date(after: start) == .distantFuture)
    }

    @Test(arguments: [
        ("P1M", StoreDuration(months: 1)), ("P3D", StoreDuration(days: 3)), ("PT2H", StoreDuration(hours: 2)),
        ("P1DT12H", StoreDuration(days: 1, hours: 12)), ("P2W", StoreDuration(weeks: 2)),
        ("P1Y2M3DT4H5M6S", StoreDuration(years: 1, months: 2, days: 3, hours: 4, minutes: 5, seconds: 6)),
        ("PT90S", StoreDuration(seconds: 90)), ("PT0S", StoreDuration()),
    ])
    func storeDurationsParse(text: String, expected: StoreDuration) {
        #expect(StoreDuration(iso8601: text) == expected)
        #expect(StoreDuration(iso8601: text)?.iso8601 == text)
    }

    @Test(arguments: ["P", "PT", "P1DT", "P1H", "PT1D", "P1M1M", "P1S", "-PT1H", "P1.5D", "PT1H2", "1D", "P1DT1H1S1M", "P1Q"])
    func malformedDurationsAreRejected(text: String) {
        #expect(StoreDuration(iso8601: text) == nil)
    }

    @Test func durationsAdvanceAClock() throws {
        let start = Self.utc(2024, 1, 31, 6)
        #expect(try #require(StoreDuration(iso8601: "P1M")).date(after: start) == Self.utc(2024, 2, 29, 6))
        #expect(try #require(StoreDuration(iso8601: "PT2H")).date(after: start) == Self.utc(2024, 1, 31, 8))
        #expect(try #require(StoreDuration(iso8601: "P1DT12H")).date(after: start) == Self.utc(2024, 2, 1, 18))
        #expect(try #require(StoreDuration(iso8601: "P1W")).date(after: start) == Self.utc(2024, 2, 7, 6))
        #expect(try #require(StoreDuration(iso8601: "PT30M")).date(after: start) == Self.utc(2024, 1, 31, 6, 30))
    }
}
