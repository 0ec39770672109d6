import Foundation

/// What ``Ledger/subscriptionMetrics(_:)`` is asked: the intervals, the time the figures are
/// as of, the environment, the exchange rates, the products' periods, what the figures are
/// grouped by and whose share is counted.
public struct SubscriptionMetricsQuery: Sendable, Hashable {
    /// The most intervals one report holds: ten years by day.
    public static let maximumIntervals = 3_660

    /// The intervals' length.
    public let interval: SubscriptionMetricsInterval
    /// The start of each interval, then the end of the last: at least two dates.
    public let boundaries: [Date]
    /// The time the figures are as of: nothing later counts.
    public let asOf: Date
    /// The environment counted (`Production`, `Sandbox`, `Xcode`), or nil for every one.
    public let environment: String?
    /// The rates money is converted with, or nil to report each currency.
    public let rates: ExperimentCurrencyRates?
    /// The months in each product's period (a week is 12/52), from a catalog; products not
    /// listed take theirs from each transaction's duration.
    public let periodMonths: [String: Double]
    /// The one customer whose share of the figures is counted, or nil for every customer.
    public let customerID: String?
    /// What the figures are also counted by, each group apart, or nil for the whole ledger's alone.
    public let grouping: SubscriptionMetricsGrouping?
    /// How many transactions one read of the ledger takes, in each subscription's order: fewer
    /// hold less in memory, more take fewer round trips.
    public let pageSize: Int

    /// The first instant a report may start at or be as of: 1900-01-01.
    public static let earliest = Date(timeIntervalSince1970: -2_208_988_800)
    /// The instant every report's dates and time are before: 10000-01-01.
    public static let latest = Date(timeIntervalSince1970: 253_402_300_800)

    /// The page size by default.
    public static let defaultPageSize = 20_000

    /// The intervals of `interval` from the one containing `from` to the one containing `to`.
    ///
    /// - Throws: ``LedgerError/invalidMetricsQuery(_:)`` when `to` is before `from`, a date or
    ///   time is outside ``earliest`` to ``latest``, there are
    ///   more than ``maximumIntervals`` intervals, a rate or period is not a finite number above
    ///   0, or the page size is below 1.
    public init(from: Date, to: Date, interval: SubscriptionMetricsInterval, asOf: Date, environment: String? = nil,
                rates: ExperimentCurrencyRates? = nil, periodMonths: [String: Double] = [:],
                grouping: SubscriptionMetricsGrouping? = nil, customerID: String? = nil,
                pageSize: Int = Self.defaultPageSize) throws(LedgerError) {
        guard from <= to else { throw .invalidMetricsQuery("the report's start is after its end") }
        guard [from, to, asOf].allSatisfy({ $0 >= Self.earliest && $0 < Self.latest }) else {
            throw .invalidMetricsQuery("a report's dates and time are from 1900 to 9999")
        }
        guard pageSize >= 1 else { throw .invalidMetricsQuery("the page size is \(pageSize); it is at least 1") }
        var boundaries = [interval.start(of: from)]
        while boundaries.last! <= to {
            guard boundaries.count <= Self.maximumIntervals else {
                throw .invalidMetricsQuery("the report has more than \(Self.maximumIntervals) intervals; use a longer interval or a shorter span")
            }
            boundaries.append(interval.next(after: boundaries.last!))
        }
        if let rates {
            do { try rates.validated() } catch { throw .invalidMetricsQuery("\(error)") }
        }
        for (product, months) in periodMonths where !(months.isFinite && months > 0) {
            throw .invalidMetricsQuery("the period of \(product) is \(months) months; it is a number above 0")
        }
        self.interval = interval
        self.boundaries = boundaries
        self.asOf = asOf
        self.environment = environment
        self.rates = rates
        self.periodMonths = periodMonths
        self.grouping = grouping
        self.customerID = customerID
        self.pageSize = pageSize
    }

    /// The first instant counted in an interval.
    public var start: Date { boundaries[0] }
    /// The instant after the last interval.
    public var end: Date { boundaries[boundaries.count - 1] }

    /// The UTC day the ledger's events are counted by: day 0 starts at ``start``.
    static let dayMilliseconds: Int64 = 86_400_000

    /// The day (from ``start``) each interval starts on, then the day after the last.
    var boundaryDays: [Int] {
        boundaries.map { Int(($0.millisecondsSince1970 - start.millisecondsSince1970) / Self.dayMilliseconds) }
    }
}
