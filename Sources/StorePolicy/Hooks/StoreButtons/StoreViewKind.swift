/// The kind of store view a `store_buttons` decision is for.
public enum StoreViewKind: String, Sendable, Codable, CaseIterable {
    /// A product store (StoreKit's `StoreView`).
    case store
    /// A subscription store (StoreKit's `SubscriptionStoreView`).
    case subscriptionStore = "subscription_store"
}
