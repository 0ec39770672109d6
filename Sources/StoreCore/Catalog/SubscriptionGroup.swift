/// A group of auto-renewable subscriptions between which a customer can upgrade, downgrade or
/// crossgrade; a customer holds at most one subscription of a group at a time.
public struct SubscriptionGroup: Sendable, Equatable, Identifiable {
    /// The group identifier (`id` in the file), as in `Product.SubscriptionInfo.subscriptionGroupID`.
    public let id: String
    /// The group's reference name (`name` in the file).
    public let name: String
    /// The localized display name, or ``name`` when the group has no localization.
    public let displayName: String
    /// Every localization in the file, in file order (usually none).
    public let localizations: [Localization]
    /// The group's subscriptions ordered by level, highest service (level 1) first; subscriptions of
    /// the same level keep file order.
    public let subscriptions: [Product]

    /// Creates a group; `subscriptions` are ordered by level.
    public init(id: String, name: String, displayName: String, localizations: [Localization], subscriptions: [Product]) {
        self.id = id
        self.name = name
        self.displayName = displayName
        self.localizations = localizations
        self.subscriptions = subscriptions.enumerated().sorted { lhs, rhs in
            let lhsLevel = lhs.element.subscription?.groupLevel ?? Int.max
            let rhsLevel = rhs.element.subscription?.groupLevel ?? Int.max
            return (lhsLevel, lhs.offset) < (rhsLevel, rhs.offset)
        }.map(\.element)
    }
}
