import StoreCore
import StorePolicy

/// What a customer owns and may use now, from one snapshot of the ledger.
public struct EntitlementsAnswer: Encodable, Sendable {
    /// The customer.
    public var customerID: String
    /// Whether the ledger has recorded the customer; one it has never seen owns nothing.
    public var customerKnown: Bool
    /// The product ids the customer is entitled to, sorted.
    public var entitlements: [String]
    /// The subscription speaking for each group the customer ever subscribed in, as the
    /// policy sees it (`ctx.customer.subscriptions`).
    public var subscriptions: [String: SubscriptionSnapshot]
    /// The customer's balance of every item ever granted.
    public var balances: [String: Int]
    /// The features the policy's `features` hook unlocks; absent when no policy was asked.
    public var features: [String]?
    /// Why `features` is the default (the entitled product ids), when the hook failed.
    public var featuresFallback: String?
    /// Transactions stored but not granted yet, by id.
    public var unfinishedTransactions: [String]
    /// The version of the policy that decided `features`; absent when no policy was asked.
    public var policyVersion: String?
    /// The variants `features` read that the ledger had not recorded; not part of the JSON.
    public var exposures: [ExperimentExposure] = []

    /// What `context` (made from `state`) holds, with the features `engine` unlocks in it when
    /// an engine is given. A failing `features` hook does not fail the answer: the decision
    /// falls back to the entitled product ids, and says why.
    public init(state: CustomerState, context: PolicyContext, engine: PolicyEngine?) {
        customerID = state.customerID
        customerKnown = state.isKnown
        entitlements = state.entitledProductIDs
        subscriptions = context.customer.subscriptions
        balances = state.balances
        unfinishedTransactions = state.unfinishedTransactions.map(\.id)
        if let engine {
            let decision = engine.features(context)
            features = decision.value
            featuresFallback = decision.failure?.description
            exposures = decision.exposures
            policyVersion = engine.version
        }
    }

    private enum CodingKeys: String, CodingKey {
        case customerID = "customer", customerKnown = "customer_known", entitlements, subscriptions, balances, features
        case featuresFallback = "features_fallback", unfinishedTransactions = "unfinished_transactions"
        case policyVersion = "policy_version"
    }
}
