import StoreCore

/// Everything StoreKit's merchandising views decide, for one customer at one placement, as
/// data: whether to merchandise at all, the store's products, each subscription group's
/// plans with their icons and offers, the store buttons, the subscriber's status line, and
/// the hook decisions behind each part.
public struct StorefrontPlan: Sendable, Equatable, Codable {
    /// Where the plan is shown, such as "home" or "store".
    public var placement: String
    /// The customer it is for.
    public var customerID: String
    /// Whether the ledger has recorded the customer, when the plan was made from the ledger;
    /// nil for a plan made from a context given in full.
    public var customerKnown: Bool?
    /// The policy version that decided.
    public var policyVersion: String
    /// Whether merchandising is shown at this placement (`show_merchandising`).
    public var showMerchandising: Bool
    /// For a subscriber, a line about the subscription: "Renews Dec 29, 2026".
    public var statusLine: String?
    /// The store (StoreKit's `StoreView`): consumables, non-consumables and non-renewing
    /// subscriptions, in display order.
    public var products: [Product]
    /// The store view's buttons.
    public var storeButtons: [Button]
    /// One subscription store (`SubscriptionStoreView`) per subscription group.
    public var subscriptionStores: [SubscriptionStore]
    /// Why: each hook decision that shaped the plan.
    public var decisions: [DecisionNote]
    /// The variants the plan's hooks read that the customer's context did not hold as
    /// recorded: the exposures a caller records before it shows the plan. Not part of the JSON.
    public var exposures: [ExperimentExposure] = []

    private enum CodingKeys: String, CodingKey {
        case placement, customerID = "customer_id", customerKnown = "customer_known", policyVersion = "policy_version"
        case showMerchandising = "show_merchandising", statusLine = "status_line", products
        case storeButtons = "store_buttons", subscriptionStores = "subscription_stores", decisions
    }

    /// A product in the store.
    public struct Product: Sendable, Equatable, Codable {
        /// The product id.
        public var id: String
        /// "consumable", "non_consumable" or "non_renewing".
        public var type: String
        /// The localized name.
        public var displayName: String
        /// The localized description.
        public var description: String
        /// The localized price.
        public var displayPrice: String
        /// How prominently it shows (`product_style`).
        public var style: ProductViewStyle
        /// Its icon (`plan_icon`), if any.
        public var icon: String?
        /// Whether the customer already owns it (non-consumables and non-renewing subscriptions).
        public var owned: Bool

        private enum CodingKeys: String, CodingKey {
            case id, type, displayName = "display_name", description, displayPrice = "display_price", style, icon, owned
        }
    }

    /// A subscription group's store.
    public struct SubscriptionStore: Sendable, Equatable, Codable {
        /// The group id.
        public var groupID: String
        /// The group's display name.
        public var groupName: String
        /// Which plans show relative to the current one (`visible_relationships`).
        public var visibleRelationships: [SubscriptionRelationship]
        /// The customer's current plan in the group, when subscribed.
        public var currentProductID: String?
        /// "picker" for several plans, "buttons" for one.
        public var controlStyle: String
        /// The plans shown, highest level of service first.
        public var plans: [Plan]
        /// The subscription store's buttons.
        public var buttons: [Button]
        /// The win-back offer a lapsed subscriber is shown (`winback_offer`), if any.
        public var winBack: WinBackCard?

        private enum CodingKeys: String, CodingKey {
            case groupID = "group_id", groupName = "group_name", visibleRelationships = "visible_relationships"
            case currentProductID = "current_product_id", controlStyle = "control_style", plans, buttons
            case winBack = "win_back"
        }
    }

    /// The card that offers a lapsed subscriber a win-back offer.
    public struct WinBackCard: Sendable, Equatable, Codable {
        /// The subscription the offer is for.
        public var productID: String
        /// Its localized name.
        public var displayName: String
        /// The offer's identifier, which the app redeems (StoreKit's `winBackOffer(_:)`).
        public var offerID: String
        /// The offer in words, such as "3 months for $0.99 each".
        public var offer: String
        /// The regular price it returns to, such as "$9.99".
        public var displayPrice: String
        /// "month", "year"…
        public var period: String

        private enum CodingKeys: String, CodingKey {
            case productID = "product_id", displayName = "display_name", offerID = "offer_id", offer
            case displayPrice = "display_price", period
        }
    }

    /// A subscription plan as shown.
    public struct Plan: Sendable, Equatable, Codable {
        /// The product id.
        public var id: String
        /// The localized name.
        public var displayName: String
        /// The localized price.
        public var displayPrice: String
        /// "month", "year", "3 months"…
        public var period: String
        /// The level in its group: 1 is the highest level of service.
        public var level: Int
        /// How the plan relates to the customer's current plan: "upgrade", "downgrade",
        /// "crossgrade" or "current"; "new" when the customer has no active subscription.
        public var relationship: String
        /// The plan's icon (`plan_icon`), if any.
        public var icon: String?
        /// The offer the customer can take, such as "1 month free", if eligible.
        public var offer: String?
        /// The label of the plan's subscribe button.
        public var buttonLabel: String

        private enum CodingKeys: String, CodingKey {
            case id, displayName = "display_name", displayPrice = "display_price", period, level, relationship, icon, offer
            case buttonLabel = "button_label"
        }
    }

    /// A store button and whether it shows.
    public struct Button: Sendable, Equatable, Codable {
        /// The kind of button.
        public var kind: StoreButtonKind
        /// What the policy asked for (`store_buttons`).
        public var visibility: StoreButtonVisibility
        /// Whether it shows: `visible`, or `automatic` where StoreKit shows it by default.
        public var isShown: Bool

        private enum CodingKeys: String, CodingKey {
            case kind, visibility, isShown = "is_shown"
        }
    }

    /// One hook decision behind the plan.
    public struct DecisionNote: Sendable, Equatable, Codable {
        /// The hook.
        public var hook: String
        /// What it decided about: a placement, product, group or view.
        public var subject: String
        /// The decision, in words.
        public var outcome: String
        /// "policy", "default" (the hook is missing) or "fallback" (the hook failed).
        public var source: String
        /// Why the fallback applied.
        public var reason: String?
    }
}
