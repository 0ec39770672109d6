import Foundation

/// An in-app purchase from the catalog, with StoreKit 2's `Product` names.
///
/// Display fields (``displayName``, ``description``, ``displayPrice``) are already localized for
/// the locale and storefront the ``Catalog`` was loaded with; ``localizations`` keeps every
/// localization the file lists.
public struct Product: Sendable, Equatable, Identifiable {
    /// The product identifier (`productID` in the file), as used to request and purchase it.
    public let id: String
    /// The kind of product.
    public let type: ProductType
    /// The internal reference name the developer gave the product; not shown to customers.
    public let referenceName: String
    /// The localized name.
    public let displayName: String
    /// The localized description.
    public let description: String
    /// The price, exactly as the file states it, in the storefront's currency.
    public let price: Decimal
    /// The price formatted for the catalog's locale in the storefront's currency, such as "$0.99".
    public let displayPrice: String
    /// Whether Family Sharing shares the purchase.
    public let isFamilyShareable: Bool
    /// Every localization in the file, in file order.
    public let localizations: [Localization]
    /// Subscription details; present exactly for auto-renewable subscriptions.
    public let subscription: SubscriptionInfo?

    /// Creates a product.
    public init(id: String, type: ProductType, referenceName: String, displayName: String,
                description: String, price: Decimal, displayPrice: String, isFamilyShareable: Bool,
                localizations: [Localization], subscription: SubscriptionInfo?) {
        self.id = id
        self.type = type
        self.referenceName = referenceName
        self.displayName = displayName
        self.description = description
        self.price = price
        self.displayPrice = displayPrice
        self.isFamilyShareable = isFamilyShareable
        self.localizations = localizations
        self.subscription = subscription
    }

    /// The localization that best fits `localeIdentifier` (same locale, else same language, else
    /// the first), or `nil` when the product has none.
    public func localization(for localeIdentifier: String) -> Localization? {
        localizations.bestMatch(for: localeIdentifier)
    }
}
