import Foundation
import StoreStatistics

extension ExperimentReport {
    /// A phase's figures over one horizon: each customer counts once their first exposure is
    /// at least the horizon old, with what they did in the horizon from it.
    public struct Horizon: Sendable, Hashable, Codable {
        /// The horizon in days.
        public var days: Int
        /// The matured customers of each variant, by variant.
        public var maturedCustomers: [String: Int]
        /// Whether the figures are a result: the split is sound and every variant has at least
        /// ``ExperimentReport/minimumCustomersPerVariant`` matured customers.
        public var isTrustworthy: Bool
        /// Each currency's cap of net revenue per customer, in units of the currency.
        public var revenueCaps: [String: Double]
        /// The currencies left out of revenue for want of a rate.
        public var currenciesLeftOut: [String]
        /// Each metric, in the report's order.
        public var metrics: [Metric]

        /// Describes a horizon's figures.
        public init(days: Int, maturedCustomers: [String: Int], isTrustworthy: Bool, revenueCaps: [String: Double],
                    currenciesLeftOut: [String], metrics: [Metric]) {
            self.days = days
            self.maturedCustomers = maturedCustomers
            self.isTrustworthy = isTrustworthy
            self.revenueCaps = revenueCaps
            self.currenciesLeftOut = currenciesLeftOut
            self.metrics = metrics
        }

        /// Whether any customer has matured yet.
        public var hasMaturedCustomers: Bool { maturedCustomers.values.contains { $0 > 0 } }

        private enum CodingKeys: String, CodingKey {
            case days, maturedCustomers = "matured_customers", isTrustworthy = "trustworthy", revenueCaps = "revenue_caps"
            case currenciesLeftOut = "currencies_left_out", metrics
        }
    }

    /// One metric over a horizon's matured customers: each variant's mean, and each variant's
    /// difference from control.
    public struct Metric: Sendable, Hashable, Codable {
        /// Which metric: `started_trial`, `paid`, `converted_trial_to_paid`, `refunded` (shares
        /// of customers) or `net_revenue` (per customer, in ``currency``).
        public var metric: String
        /// The currency of a revenue metric.
        public var currency: String?
        /// For a revenue metric, the cap each customer's value was taken at most as; nil for
        /// the uncapped figure and for shares.
        public var cap: Double?
        /// Each variant's customers and mean.
        public var variants: [VariantMean]
        /// Each variant other than control, against control.
        public var comparisons: [Comparison]

        /// Describes a metric.
        public init(metric: String, currency: String?, cap: Double?, variants: [VariantMean], comparisons: [Comparison]) {
            self.metric = metric
            self.currency = currency
            self.cap = cap
            self.variants = variants
            self.comparisons = comparisons
        }

        /// The metric as a reader names it: "net revenue (USD, capped at 29.99)".
        public var title: String {
            let names = ["started_trial": "started a trial", "paid": "paid", "converted_trial_to_paid": "converted trial → paid",
                         "refunded": "refunded", "net_revenue": "net revenue per customer"]
            let name = names[metric] ?? metric
            guard let currency else { return name }
            if let cap { return "\(name) (\(currency), capped at \(cap.formatted(.number.precision(.fractionLength(0...2)))))" }
            return "\(name) (\(currency), uncapped)"
        }

        /// Whether the metric is a share of customers rather than an amount.
        public var isShare: Bool { currency == nil }
    }

    /// A variant's matured customers and its mean of a metric.
    public struct VariantMean: Sendable, Hashable, Codable {
        /// The variant.
        public var variant: String
        /// Its matured customers.
        public var customers: Int
        /// The metric's mean per customer.
        public var mean: Double

        /// Describes a variant's mean.
        public init(variant: String, customers: Int, mean: Double) {
            self.variant = variant
            self.customers = customers
            self.mean = mean
        }
    }

    /// A variant against control on one metric: the absolute and the relative difference,
    /// each by both tests.
    public struct Comparison: Sendable, Hashable, Codable {
        /// The variant compared with control.
        public var variant: String
        /// The treatment's mean less control's, in the metric's units.
        public var absolute: Tests
        /// The difference as a share of control's mean.
        public var relative: Tests

        /// Describes a comparison.
        public init(variant: String, absolute: Tests, relative: Tests) {
            self.variant = variant
            self.absolute = absolute
            self.relative = relative
        }
    }

    /// One difference by both tests: the sequential test's, valid however often the report is
    /// read (the default), and the fixed-horizon test's, valid for one look at a horizon fixed
    /// in advance.
    public struct Tests: Sendable, Hashable, Codable {
        /// The sequential test's result.
        public var sequential: TestResult
        /// The fixed-horizon test's result.
        public var fixedHorizon: TestResult

        /// Describes both tests' results.
        public init(sequential: TestResult, fixedHorizon: TestResult) {
            self.sequential = sequential
            self.fixedHorizon = fixedHorizon
        }

        private enum CodingKeys: String, CodingKey { case sequential, fixedHorizon = "fixed_horizon" }
    }

    /// One test's estimate of a difference: the estimate, its interval and its p-value, or
    /// why there is none.
    public struct TestResult: Sendable, Hashable, Codable {
        /// The estimated difference.
        public var estimate: Double?
        /// The interval's lower end.
        public var lower: Double?
        /// The interval's upper end.
        public var upper: Double?
        /// The two-sided p-value against no difference.
        public var pValue: Double?
        /// Whether the interval excludes no difference.
        public var isSignificant: Bool
        /// Why there is no estimate, when there is none.
        public var undefinedReason: String?

        /// The result of a comparison StoreStatistics made.
        public init(_ comparison: MetricComparison) {
            estimate = comparison.estimate
            lower = comparison.lower
            upper = comparison.upper
            pValue = comparison.pValue
            isSignificant = comparison.isSignificant
            undefinedReason = comparison.undefinedReason.map(Self.wording)
        }

        private static func wording(_ reason: ComparisonUndefinedReason) -> String {
            switch reason {
            case .controlMeanZero: "control's mean is 0"
            case .zeroOrNegativeVariance: "a variant's values do not vary"
            case .notFinite: "the arithmetic left the finite numbers"
            }
        }

        private enum CodingKeys: String, CodingKey {
            case estimate, lower, upper, pValue = "p_value", isSignificant = "significant", undefinedReason = "undefined_reason"
        }
    }
}
