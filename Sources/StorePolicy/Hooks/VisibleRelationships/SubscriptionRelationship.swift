/// How a subscriber's plans relate to their current plan, as StoreKit's
/// `Product.SubscriptionRelationship` names it.
public enum SubscriptionRelationship: String, Sendable, Codable, CaseIterable {
    /// Plans with a higher level of service (a lower group level) than the current one.
    case upgrade
    /// Plans with a lower level of service.
    case downgrade
    /// Other plans at the same level.
    case crossgrade
    /// The plan the subscription renews to.
    case current
    /// Every plan.
    case all
}
