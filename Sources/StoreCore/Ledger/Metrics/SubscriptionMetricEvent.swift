/// The events of one kind on one day of a subscription metrics report, in one currency, as the
/// ledger counts them, walking the transactions in order of their subscriptions
/// (`SubscriptionTimeline`).
public struct SubscriptionMetricEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: Int, Sendable, Hashable, CaseIterable {
        /// A paid coverage began (`n` +1, `amount` +its MRR) or ended (-1, -MRR).
        case paidCoverage = 0
        /// A trial coverage began (+1) or ended (-1).
        case trialCoverage = 1
        /// A customer's first transaction.
        case newCustomer = 3
        /// A trial transaction was purchased.
        case newTrial = 4
        /// A trial ended (`n`), converted to paid (`amount`, 1 or 0).
        case trialEnded = 5
        /// A subscription's first paid transaction.
        case newPaidSubscription = 7
        /// A renewal (`n`), with a product change (`amount`, 1 or 0).
        case renewal = 8
        /// A transaction that replaced an upgraded one.
        case upgrade = 9
        /// A paid coverage ended with no coverage after it (`n`), or with none in its currency (`amount`, its MRR).
        case churn = 11
        /// MRR of a subscription's first paid coverage.
        case mrrNew = 12
        /// MRR of a paid coverage after a gap.
        case mrrReactivation = 13
        /// MRR gained when a coverage continued one.
        case mrrExpansion = 14
        /// MRR lost when a coverage continued one.
        case mrrContraction = 15
        /// An auto-renewable transaction purchased (`n`), its price (`amount`).
        case subscriptionRevenue = 17
        /// A transaction of another product type purchased (`n`), its price (`amount`).
        case otherRevenue = 18
        /// A transaction revoked (`n`), its price (`amount`).
        case refund = 19
    }

    /// The day from the report's start (`-1` for every day before it).
    public var day: Int
    /// What happened.
    public var kind: Kind
    /// The currency's ISO code, or empty for none.
    public var currency: String
    /// A count, or a change of one.
    public var n: Int
    /// Milli-units, or a second count.
    public var amount: Double
    /// The product or storefront the event counts in, when the query groups by one; nil for
    /// the whole ledger's figures.
    public var group: String?

    /// Describes the events of one day, kind and currency.
    public init(day: Int, kind: Kind, currency: String, n: Int, amount: Double, group: String? = nil) {
        self.day = day
        self.kind = kind
        self.currency = currency
        self.n = n
        self.amount = amount
        self.group = group
    }
}
