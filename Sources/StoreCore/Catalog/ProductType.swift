/// The kind of an in-app purchase, as StoreKit's `Product.ProductType` names it.
public enum ProductType: String, Sendable, Codable, CaseIterable {
    /// Used up once bought, and bought again: tips, bird food.
    case consumable
    /// Bought once and kept for good: a recipe.
    case nonConsumable
    /// A subscription that renews by itself, within a subscription group.
    case autoRenewable
    /// A subscription for a fixed period that does not renew.
    case nonRenewable

    /// The word a `.storekit` file writes in a product's `type`: "Consumable", "NonConsumable",
    /// "RecurringSubscription" or "NonRenewingSubscription".
    public var configurationType: String {
        switch self {
        case .consumable: "Consumable"
        case .nonConsumable: "NonConsumable"
        case .autoRenewable: "RecurringSubscription"
        case .nonRenewable: "NonRenewingSubscription"
        }
    }

    /// The product type a `.storekit` `type` word names, or `nil` for a word that names none.
    public init?(configurationType: String) {
        guard let type = Self.allCases.first(where: { $0.configurationType == configurationType }) else { return nil }
        self = type
    }
}
