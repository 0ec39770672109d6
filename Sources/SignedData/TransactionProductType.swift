/// The kind of in-app purchase a signed transaction is for (Apple's `Type`, the payload's `type`).
///
/// The catalog's `ProductType` (in `StoreCore`) names the same four kinds the way StoreKit's `Product.ProductType` does.
///
/// A value Apple adds later decodes and encodes unchanged; ``isKnown`` tells it apart.
public struct TransactionProductType: AppStoreEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its JSON form, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `Auto-Renewable Subscription`: A subscription that renews by itself.
    public static let autoRenewableSubscription = Self(rawValue: "Auto-Renewable Subscription")

    /// `Non-Consumable`: A purchase bought once and kept.
    public static let nonConsumable = Self(rawValue: "Non-Consumable")

    /// `Consumable`: A purchase used up and bought again.
    public static let consumable = Self(rawValue: "Consumable")

    /// `Non-Renewing Subscription`: A subscription for a fixed period that does not renew.
    public static let nonRenewingSubscription = Self(rawValue: "Non-Renewing Subscription")

    /// Every value Apple documents, in Apple's order.
    public static let knownValues: [Self] = [
        .autoRenewableSubscription,
        .nonConsumable,
        .consumable,
        .nonRenewingSubscription,
    ]
}
