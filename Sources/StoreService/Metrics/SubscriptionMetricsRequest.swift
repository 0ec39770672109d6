import Foundation
import StoreCore
import StorePolicy

/// A subscription metrics report as a person or a route asks for it, in words: the dates, the
/// interval, the environment, the currency with its rates, what it is grouped by; checked into a
/// ``StoreCore/SubscriptionMetricsQuery``. The same for `storerules ledger metrics` and
/// `GET /v1/admin/metrics/subscriptions`.
public struct SubscriptionMetricsRequest: Sendable {
    /// The first day, `YYYY-MM-DD` (UTC), or nil for the default span before ``to``.
    public var from: String?
    /// The last day, or nil for the day of the report's time.
    public var to: String?
    /// `day`, `week` or `month`, or nil for `day`.
    public var interval: String?
    /// The environment counted, or nil for every one.
    public var environment: String?
    /// The rates money is converted with, or nil for each currency apart.
    public var rates: ExperimentCurrencyRates?
    /// `product` or `storefront` to count each one's figures apart as well, or nil.
    public var by: String?
    /// The one customer whose share is counted, or nil for every customer.
    public var customer: String?

    /// A request with every default.
    public init(from: String? = nil, to: String? = nil, interval: String? = nil, environment: String? = nil,
                rates: ExperimentCurrencyRates? = nil, by: String? = nil, customer: String? = nil) {
        self.from = from
        self.to = to
        self.interval = interval
        self.environment = environment
        self.rates = rates
        self.by = by
        self.customer = customer
    }

    /// How many intervals the report holds when no start is given: 30 days, 12 weeks or 12 months.
    public static func defaultCount(of interval: SubscriptionMetricsInterval) -> Int {
        switch interval {
        case .day: 30
        case .week, .month: 12
        }
    }

    /// The environments a ledger holds transactions of: those Apple documents.
    public static let environments = AppStoreEnvironment.knownValues.map(\.rawValue)

    /// The query as of `asOf`, with each product's period from `catalog` when given.
    ///
    /// - Throws: ``SubscriptionMetricsRequestError`` naming the bad part.
    public func query(asOf: Date, catalog: Catalog?) throws(SubscriptionMetricsRequestError) -> SubscriptionMetricsQuery {
        let interval: SubscriptionMetricsInterval
        if let text = self.interval {
            guard let parsed = SubscriptionMetricsInterval(rawValue: text) else {
                throw .init("interval is day, week or month, not '\(text)'" + Self.hint(text, SubscriptionMetricsInterval.allCases.map(\.rawValue)))
            }
            interval = parsed
        } else {
            interval = .day
        }
        let to = try to.map { text throws(SubscriptionMetricsRequestError) in try Self.day(text, "to") } ?? asOf
        var from: Date
        if let text = self.from {
            from = try Self.day(text, "from")
        } else {
            from = interval.start(of: to)
            for _ in 1..<Self.defaultCount(of: interval) { from = interval.previous(before: from) }
        }
        if let environment, !Self.environments.contains(environment) {
            throw .init("environment is one of \(Self.environments.joined(separator: ", ")), not '\(environment)'"
                        + Self.hint(environment, Self.environments))
        }
        let grouping = try by.map { text throws(SubscriptionMetricsRequestError) in
            guard let grouping = SubscriptionMetricsGrouping(rawValue: text) else {
                let known = SubscriptionMetricsGrouping.allCases.map(\.rawValue)
                throw .init("by is \(known.joined(separator: " or ")), not '\(text)'" + Self.hint(text, known))
            }
            return grouping
        }
        if let customer, let problem = CustomerID.problem(with: customer) { throw .init("customer: \(problem)") }
        do {
            return try SubscriptionMetricsQuery(from: from, to: to, interval: interval, asOf: asOf, environment: environment,
                                                rates: rates, periodMonths: catalog.map(Self.periodMonths) ?? [:], grouping: grouping,
                                                customerID: customer)
        } catch {
            throw .init(error.description)
        }
    }

    /// The months in each auto-renewable product's period in `catalog` (a week is 12/52, a day 12/365.25).
    public static func periodMonths(of catalog: Catalog) -> [String: Double] {
        var months: [String: Double] = [:]
        for product in catalog.products {
            guard let period = product.subscription?.subscriptionPeriod else { continue }
            let value = Double(period.value)
            switch period.unit {
            case .day: months[product.id] = value * 12 / 365.25
            case .week: months[product.id] = value * 12 / 52
            case .month: months[product.id] = value
            case .year: months[product.id] = value * 12
            }
        }
        return months
    }

    /// `; did you mean 'NAME'?` with the known value nearest `text`, or nothing when none is close.
    private static func hint(_ text: String, _ known: [String]) -> String {
        NearestName.nearest(to: text, in: known).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The start of the UTC day `text` (`YYYY-MM-DD`) names.
    private static func day(_ text: String, _ name: String) throws(SubscriptionMetricsRequestError) -> Date {
        guard let date = ExperimentDate.parse(text) else { throw .init("\(name) is a date, YYYY-MM-DD, not '\(text)'") }
        return date
    }
}

/// Why a subscription metrics request cannot be answered.
public struct SubscriptionMetricsRequestError: Error, Sendable, CustomStringConvertible {
    /// The reason, naming the bad part.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
