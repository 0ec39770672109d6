/// The hooks a policy may define. Every hook is optional; a missing hook means its
/// documented default (see `docs/policy.md`).
public enum PolicyHook: String, Sendable, CaseIterable, Codable {
    /// `show_merchandising(ctx, placement) -> boolean`: whether to show store merchandising.
    case showMerchandising = "show_merchandising"
    /// `visible_relationships(ctx, group) -> { "upgrade" | "downgrade" | "crossgrade" | "current" | "all", ... }`.
    case visibleRelationships = "visible_relationships"
    /// `plan_icon(ctx, plan) -> string | nil`: the icon for a subscription plan.
    case planIcon = "plan_icon"
    /// `grant(ctx, tx, product) -> { { item = string, amount = integer }, ... }`: what a purchase grants.
    case grant
    /// `product_style(ctx, product) -> "compact" | "regular" | "large"`.
    case productStyle = "product_style"
    /// `store_buttons(ctx, view) -> { [kind] = "visible" | "hidden" | "automatic" }`.
    case storeButtons = "store_buttons"
    /// `features(ctx) -> { string, ... }`: the features unlocked for the customer.
    case features
    /// `consumption(ctx, tx, request) -> { customer_consented, delivery_status, ... } | nil`:
    /// what to tell Apple about a customer's refund request.
    case consumption
    /// `retention_message(ctx, request) -> { message, alternate_product | promotional_offer } | nil`:
    /// what a subscriber about to cancel is shown.
    case retentionMessage = "retention_message"
    /// `renewal_extension(ctx, subscription, incident) -> { days, reason } | nil`: the days a
    /// subscriber is given for an incident.
    case renewalExtension = "renewal_extension"
    /// `winback_offer(ctx, product, offers) -> string | nil`: which eligible win-back offer a
    /// lapsed subscriber is shown.
    case winBackOffer = "winback_offer"

    /// The hook's name in Lua.
    public var name: String { rawValue }
}

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

/// How prominently a product is shown, as StoreKit's `ProductViewStyle` names it.
public enum ProductViewStyle: String, Sendable, Codable, CaseIterable {
    /// Takes less space.
    case compact
    /// The standard presentation.
    case regular
    /// A prominent presentation.
    case large
}

/// The buttons a StoreKit store view can show, as `StoreButtonKind` names them.
public enum StoreButtonKind: String, Sendable, Codable, CaseIterable, Comparable {
    /// Closes the store.
    case cancellation
    /// Restores purchases (`AppStore.sync()`).
    case restorePurchases = "restore_purchases"
    /// Opens the offer-code redemption sheet.
    case redeemCode = "redeem_code"
    /// Signs in to an existing account.
    case signIn = "sign_in"
    /// Shows the terms of service and privacy policy.
    case policies

    /// Orders buttons as StoreKit lists them.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Whether a store button shows, as StoreKit's `Visibility` names it.
public enum StoreButtonVisibility: String, Sendable, Codable, CaseIterable {
    /// The view decides.
    case automatic
    /// Always shown.
    case visible
    /// Never shown.
    case hidden
}

/// The kind of store view a `store_buttons` decision is for.
public enum StoreViewKind: String, Sendable, Codable, CaseIterable {
    /// A product store (StoreKit's `StoreView`).
    case store
    /// A subscription store (StoreKit's `SubscriptionStoreView`).
    case subscriptionStore = "subscription_store"
}
