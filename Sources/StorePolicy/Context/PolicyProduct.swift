import Foundation
import StoreCore

/// A product as policies see it (`ctx.catalog.products[id]`, the `product` and `plan`
/// arguments of hooks) and as `storerules catalog --json` prints it.
public struct PolicyProduct: Sendable, Equatable, Codable {
    /// The product id.
    public var id: String
    /// "consumable", "non_consumable", "auto_renewable" or "non_renewing".
    public var type: String
    /// The localized name.
    public var displayName: String
    /// The localized description.
    public var description: String
    /// The price as a decimal string, such as "4.99".
    public var price: String
    /// The localized price, such as "$4.99".
    public var displayPrice: String
    /// Whether Family Sharing shares it.
    public var isFamilyShareable: Bool
    /// Subscription details, for auto-renewable subscriptions.
    public var subscription: Subscription?

    /// A subscription's details as policies see them.
    public struct Subscription: Sendable, Equatable, Codable {
        /// The subscription group id.
        public var groupId: String
        /// The group's display name.
        public var groupName: String
        /// The level in the group: 1 is the highest level of service.
        public var groupLevel: Int
        /// The renewal period.
        public var period: Period
        /// The introductory offer, if any.
        public var introductoryOffer: Offer?
        /// The promotional offers.
        public var promotionalOffers: [Offer]
        /// The win-back offers, for customers whose subscription lapsed.
        public var winBackOffers: [Offer]

        private enum CodingKeys: String, CodingKey {
            case groupId = "group_id", groupName = "group_name", groupLevel = "group_level", period
            case introductoryOffer = "introductory_offer", promotionalOffers = "promotional_offers"
            case winBackOffers = "win_back_offers"
        }

        /// Reads subscription details; `win_back_offers` is empty when absent.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            groupId = try container.decode(String.self, forKey: .groupId)
            groupName = try container.decode(String.self, forKey: .groupName)
            groupLevel = try container.decode(Int.self, forKey: .groupLevel)
            period = try container.decode(Period.self, forKey: .period)
            introductoryOffer = try container.decodeIfPresent(Offer.self, forKey: .introductoryOffer)
            promotionalOffers = try container.decode([Offer].self, forKey: .promotionalOffers)
            winBackOffers = try container.decodeIfPresent([Offer].self, forKey: .winBackOffers) ?? []
        }

        /// Creates subscription details.
        public init(groupId: String, groupName: String, groupLevel: Int, period: Period, introductoryOffer: Offer?,
                    promotionalOffers: [Offer], winBackOffers: [Offer] = []) {
            self.groupId = groupId
            self.groupName = groupName
            self.groupLevel = groupLevel
            self.period = period
            self.introductoryOffer = introductoryOffer
            self.promotionalOffers = promotionalOffers
            self.winBackOffers = winBackOffers
        }
    }

    /// A subscription period in StoreKit's units.
    public struct Period: Sendable, Equatable, Codable {
        /// "day", "week", "month" or "year".
        public var unit: String
        /// How many units.
        public var value: Int
    }

    /// A subscription offer as policies see it.
    public struct Offer: Sendable, Equatable, Codable {
        /// The offer id (promotional offers), else absent.
        public var id: String?
        /// "introductory", "promotional", "win_back" or "code".
        public var type: String
        /// "free_trial", "pay_as_you_go" or "pay_up_front".
        public var paymentMode: String
        /// The offer price as a decimal string.
        public var price: String
        /// The localized offer price.
        public var displayPrice: String
        /// The length of one offer period.
        public var period: Period
        /// How many periods the offer lasts.
        public var periodCount: Int

        private enum CodingKeys: String, CodingKey {
            case id, type, paymentMode = "payment_mode", price, displayPrice = "display_price", period
            case periodCount = "period_count"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, type, displayName = "display_name", description, price, displayPrice = "display_price"
        case isFamilyShareable = "is_family_shareable", subscription
    }
}

extension PolicyProduct {
    /// The policy view of a catalog product.
    public init(_ product: Product) {
        id = product.id
        type = product.type.policyName
        displayName = product.displayName
        description = product.description
        price = "\(product.price)"
        displayPrice = product.displayPrice
        isFamilyShareable = product.isFamilyShareable
        subscription = product.subscription.map { info in
            Subscription(groupId: info.subscriptionGroupID, groupName: info.groupDisplayName,
                         groupLevel: info.groupLevel, period: Period(info.subscriptionPeriod),
                         introductoryOffer: info.introductoryOffer.map(Offer.init),
                         promotionalOffers: info.promotionalOffers.map(Offer.init),
                         winBackOffers: info.winBackOffers.map(Offer.init))
        }
    }
}

extension PolicyProduct.Period {
    /// The policy view of a subscription period.
    public init(_ period: SubscriptionPeriod) {
        unit = period.unit.rawValue
        value = period.value
    }
}

extension PolicyProduct.Offer {
    /// The policy view of a subscription offer.
    public init(_ offer: Product.SubscriptionOffer) {
        id = offer.id
        switch offer.type {
        case .introductory: type = "introductory"
        case .promotional: type = "promotional"
        case .winBack: type = "win_back"
        case .code: type = "code"
        }
        switch offer.paymentMode {
        case .freeTrial: paymentMode = "free_trial"
        case .payAsYouGo: paymentMode = "pay_as_you_go"
        case .payUpFront: paymentMode = "pay_up_front"
        }
        price = "\(offer.price)"
        displayPrice = offer.displayPrice
        period = PolicyProduct.Period(offer.period)
        periodCount = offer.periodCount
    }
}

extension ProductType {
    /// The type's name in Lua and JSON: "consumable", "non_consumable", "auto_renewable"
    /// or "non_renewing".
    public var policyName: String {
        switch self {
        case .consumable: return "consumable"
        case .nonConsumable: return "non_consumable"
        case .autoRenewable: return "auto_renewable"
        case .nonRenewable: return "non_renewing"
        }
    }
}
