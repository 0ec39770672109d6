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
}
