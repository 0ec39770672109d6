import Foundation

/// A subscription business's figures per interval, counted from the ledger by
/// ``Ledger/subscriptionMetrics(_:)``, where each figure is defined.
public struct SubscriptionMetrics: Sendable, Hashable {
    /// One currency's money figures in an interval, in units of the currency; its JSON names
    /// each figure in snake case (`mrr_new`, `subscription_revenue`).
    public struct Money: Sendable, Hashable, Encodable {
        /// Monthly recurring revenue at the interval's snapshot.
        public var mrr = 0.0
        /// MRR of subscriptions' first paid coverages begun in the interval.
        public var mrrNew = 0.0
        /// MRR of paid coverages begun after a gap.
        public var mrrReactivation = 0.0
        /// MRR gained where a coverage continued another at a higher MRR.
        public var mrrExpansion = 0.0
        /// MRR lost where a coverage continued another at a lower MRR.
        public var mrrContraction = 0.0
        /// MRR of paid coverages that ended without a continuation.
        public var mrrChurn = 0.0
        /// Prices of auto-renewable transactions purchased in the interval.
        public var subscriptionRevenue = 0.0
        /// Prices of the other transactions purchased in the interval.
        public var nonSubscriptionRevenue = 0.0
        /// Prices of transactions revoked in the interval.
        public var refunded = 0.0

        /// Figures of zero.
        public init() {}

        /// Whether every figure is zero.
        public var isZero: Bool { self == Money() }

        private enum CodingKeys: String, CodingKey {
            case mrr, mrrNew = "mrr_new", mrrReactivation = "mrr_reactivation", mrrExpansion = "mrr_expansion"
            case mrrContraction = "mrr_contraction", mrrChurn = "mrr_churn", subscriptionRevenue = "subscription_revenue"
            case nonSubscriptionRevenue = "non_subscription_revenue", refunded
        }
    }

    /// One interval's figures.
    public struct Interval: Sendable, Hashable {
        /// The interval's first instant.
        public var start: Date
        /// The instant after the interval.
        public var end: Date
        /// Paid subscriptions (grace periods included) active at the snapshot.
        public var activeSubscriptions = 0
        /// Free trials active at the snapshot.
        public var activeTrials = 0
        /// Customers whose first transaction was purchased in the interval.
        public var newCustomers = 0
        /// Free trials begun.
        public var newTrials = 0
        /// Free trials ended.
        public var trialsEnded = 0
        /// Of the trials ended, those converted to paid.
        public var trialsConverted = 0
        /// Subscriptions whose first paid transaction was purchased in the interval.
        public var newPaidSubscriptions = 0
        /// Paid transactions that renewed a subscription.
        public var renewals = 0
        /// Transactions that replaced an upgraded one.
        public var upgrades = 0
        /// Renewals into another product (downgrades and crossgrades).
        public var productChangesAtRenewal = 0
        /// Paid coverages that ended without a coverage after them.
        public var churnedSubscriptions = 0
        /// Paid subscriptions active at the snapshot before the interval.
        public var activeSubscriptionsBefore = 0
        /// Transactions revoked in the interval.
        public var refunds = 0
        /// Transactions purchased in the interval.
        public var transactions = 0
        /// Money figures by currency (or in the one currency of the rates): the currencies with
        /// a figure that is not zero.
        public var money: [String: Money] = [:]

        /// An interval with no figures yet.
        public init(start: Date, end: Date) {
            self.start = start
            self.end = end
        }

        /// Trials converted over trials ended; nil when none ended.
        public var trialConversionRate: Double? { trialsEnded > 0 ? Double(trialsConverted) / Double(trialsEnded) : nil }
        /// Churned subscriptions over those active before the interval; nil when none was.
        public var churnRate: Double? {
            activeSubscriptionsBefore > 0 ? Double(churnedSubscriptions) / Double(activeSubscriptionsBefore) : nil
        }
        /// Refunds over transactions purchased in the interval; nil when none was.
        public var refundRate: Double? { transactions > 0 ? Double(refunds) / Double(transactions) : nil }
    }

    /// The intervals' length.
    public var interval: SubscriptionMetricsInterval
    /// The time the figures are as of.
    public var asOf: Date
    /// The environment counted, or nil for every one.
    public var environment: String?
    /// The currency money is converted into, or nil for each currency apart.
    public var currency: String?
    /// The currencies without a rate, left out of every money figure.
    public var currenciesLeftOut: [String]
    /// Where products' periods came from: `catalog` when a catalog gave them (a product it
    /// does not list takes its period from its transactions' durations), else `duration`.
    public var periodSource: String
    /// The intervals, in order.
    public var intervals: [Interval]
    /// The customer whose share the figures are, or nil for every customer.
    public var customerID: String?
    /// What ``groups`` are counted by, or nil when the report has none.
    public var grouping: SubscriptionMetricsGrouping?
    /// The figures of each product or storefront apart, by its name (empty for transactions
    /// without a storefront): each event counts in its transaction's group, and a subscription
    /// that moves between groups is churned by MRR (not as a churned subscription) from one and
    /// reactivated in the other.
    public var groups: [Group] = []

    /// One product's or storefront's figures.
    public struct Group: Sendable, Hashable {
        /// The product id or storefront code; empty for transactions without a storefront.
        public var name: String
        /// Its intervals, as the report's.
        public var intervals: [Interval]

        /// Describes a group.
        public init(name: String, intervals: [Interval]) {
            self.name = name
            self.intervals = intervals
        }
    }

    /// Describes a report.
    public init(interval: SubscriptionMetricsInterval, asOf: Date, environment: String?, currency: String?, currenciesLeftOut: [String],
                periodSource: String, intervals: [Interval]) {
        self.interval = interval
        self.asOf = asOf
        self.environment = environment
        self.currency = currency
        self.currenciesLeftOut = currenciesLeftOut
        self.periodSource = periodSource
        self.intervals = intervals
    }
}
