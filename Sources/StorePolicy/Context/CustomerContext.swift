import Foundation
import LuaBridge

/// What the host knows about one customer: `ctx.customer` in Lua.
///
/// Every table the policy contract names is always present (possibly empty), so a policy
/// never indexes nil.
public struct CustomerContext: Sendable, Equatable, Codable {
    /// The customer's identifier; empty for an anonymous customer.
    public var id: String
    /// A number 0–99, stable for an id, for A/B splits.
    public var seed: Int
    /// False while the subscription status has not been loaded.
    public var statusKnown: Bool
    /// The product ids the customer is entitled to now.
    public var entitlements: [String]
    /// The customer's subscription in each group, by group id.
    public var subscriptions: [String: SubscriptionSnapshot]
    /// Item balances (item → amount), for consumables.
    public var balances: [String: Int]
    /// Anything else the host passes; a Lua table (`ctx.customer.attributes`).
    public var attributes: [String: LuaValue]
    /// Merchandising events by name (`ctx.customer.events`): a paywall shown, an offer dismissed.
    public var events: [String: EventHistory]
    /// The variants the ledger recorded the customer as exposed to: experiment → phase →
    /// variant. Not a field of `ctx.customer`: `ctx.experiments` reads it, so that a customer
    /// once exposed keeps the variant they saw. It is not part of the JSON form.
    public var exposures: [String: [String: String]] = [:]

    /// Creates a customer context. The seed is derived from the id unless given.
    public init(id: String = "", seed: Int? = nil, statusKnown: Bool = false, entitlements: [String] = [],
                subscriptions: [String: SubscriptionSnapshot] = [:], balances: [String: Int] = [:],
                attributes: [String: LuaValue] = [:], events: [String: EventHistory] = [:]) {
        self.id = id
        self.seed = seed ?? CustomerContext.seed(for: id)
        self.statusKnown = statusKnown
        self.entitlements = entitlements
        self.subscriptions = subscriptions
        self.balances = balances
        self.attributes = attributes
        self.events = events
    }

    /// The A/B seed of a customer id: FNV-1a of its UTF-8 bytes, modulo 100.
    public static func seed(for id: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int(hash % 100)
    }

    /// Whether the customer has service from any subscription group now
    /// (subscribed or in the grace period).
    public var hasActiveSubscription: Bool {
        subscriptions.values.contains { $0.state.isEntitled }
    }

    /// Gives subscriptions that name a product but no level (level 0) the product's level
    /// in `catalog`.
    public mutating func fillMissingGroupLevels(from catalog: PolicyCatalog) {
        for (groupID, subscription) in subscriptions where subscription.groupLevel == 0 {
            if let level = catalog.products[subscription.productID]?.subscription?.groupLevel {
                subscriptions[groupID]?.groupLevel = level
            }
        }
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, seed, statusKnown = "status_known", entitlements, subscriptions, balances, attributes, events
    }

    /// Reads a customer from JSON (snake_case keys, as in Lua); every field is optional, an
    /// unknown field is refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        let id = try container.decodeIfPresent(String.self, forKey: .id) ?? ""
        let seed = try container.decodeIfPresent(Int.self, forKey: .seed)
        if let seed, !(0...99).contains(seed) {
            throw DecodingError.dataCorruptedError(forKey: .seed, in: container, debugDescription: "expected a whole number from 0 to 99, found \(seed)")
        }
        self.init(
            id: id, seed: seed,
            statusKnown: try container.decodeIfPresent(Bool.self, forKey: .statusKnown) ?? false,
            entitlements: try container.decodeIfPresent([String].self, forKey: .entitlements) ?? [],
            subscriptions: try container.decodeIfPresent([String: SubscriptionSnapshot].self, forKey: .subscriptions) ?? [:],
            balances: try container.decodeIfPresent([String: Int].self, forKey: .balances) ?? [:],
            attributes: try container.decodeIfPresent([String: LuaValue].self, forKey: .attributes) ?? [:],
            events: try container.decodeIfPresent([String: EventHistory].self, forKey: .events) ?? [:])
    }

    /// Writes the customer as JSON with the keys Lua sees.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(seed, forKey: .seed)
        try container.encode(statusKnown, forKey: .statusKnown)
        try container.encode(entitlements, forKey: .entitlements)
        try container.encode(subscriptions, forKey: .subscriptions)
        try container.encode(balances, forKey: .balances)
        try container.encode(attributes, forKey: .attributes)
        try container.encode(events, forKey: .events)
    }
}

/// A customer's subscription in one group, as a policy sees it.
public struct SubscriptionSnapshot: Sendable, Equatable, Codable {
    /// The subscription product the customer has (or had).
    public var productID: String
    /// Its level in the group: 1 is the highest level of service.
    public var groupLevel: Int
    /// The renewal state.
    public var state: SubscriptionState
    /// Whether it will renew at the end of the period.
    public var willAutoRenew: Bool
    /// When the current period ends, if known.
    public var expirationDate: Date?
    /// Whether the customer can still get the group's introductory offer.
    public var introEligible: Bool
    /// The win-back offers the customer may redeem, best first, as the renewal info names them
    /// (`win_back_offers`); empty unless the subscription lapsed.
    public var winBackOfferIDs: [String]
    /// How many months of service the customer paid for in the group (`paid_months`; see
    /// ``StoreCore/CustomerState/paidMonths(inGroup:)``).
    public var paidMonths: Double

    /// Creates a snapshot.
    public init(productID: String, groupLevel: Int, state: SubscriptionState, willAutoRenew: Bool = true,
                expirationDate: Date? = nil, introEligible: Bool = false, winBackOfferIDs: [String] = [], paidMonths: Double = 0) {
        self.productID = productID
        self.groupLevel = groupLevel
        self.state = state
        self.willAutoRenew = willAutoRenew
        self.expirationDate = expirationDate
        self.introEligible = introEligible
        self.winBackOfferIDs = winBackOfferIDs
        self.paidMonths = paidMonths
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case productID = "product_id", groupLevel = "group_level", state, willAutoRenew = "will_auto_renew"
        case expirationDate = "expiration_date", introEligible = "intro_eligible", winBackOfferIDs = "win_back_offers"
        case paidMonths = "paid_months"
    }

    /// Reads a snapshot from JSON; `product_id` is required, an unknown field is refused,
    /// `group_level` is 0 or more and `expiration_date` is epoch seconds (years 1 to 9999).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        productID = try container.decode(String.self, forKey: .productID)
        groupLevel = try container.decodeIfPresent(Int.self, forKey: .groupLevel) ?? 0
        guard groupLevel >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .groupLevel, in: container, debugDescription: "expected a level of 0 or more, found \(groupLevel)")
        }
        state = try container.decodeIfPresent(SubscriptionState.self, forKey: .state) ?? .subscribed
        willAutoRenew = try container.decodeIfPresent(Bool.self, forKey: .willAutoRenew) ?? true
        expirationDate = try container.decodeEpochSecondsIfPresent(forKey: .expirationDate)
        introEligible = try container.decodeIfPresent(Bool.self, forKey: .introEligible) ?? false
        winBackOfferIDs = try container.decodeIfPresent([String].self, forKey: .winBackOfferIDs) ?? []
        paidMonths = try container.decodeIfPresent(Double.self, forKey: .paidMonths) ?? 0
        guard paidMonths >= 0, paidMonths.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: .paidMonths, in: container, debugDescription: "expected 0 or more months, found \(paidMonths)")
        }
    }

    /// Writes the snapshot as JSON with the keys Lua sees.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(productID, forKey: .productID)
        try container.encode(groupLevel, forKey: .groupLevel)
        try container.encode(state, forKey: .state)
        try container.encode(willAutoRenew, forKey: .willAutoRenew)
        try container.encodeIfPresent(expirationDate.map(EpochSeconds.whole), forKey: .expirationDate)
        try container.encode(introEligible, forKey: .introEligible)
        try container.encode(winBackOfferIDs, forKey: .winBackOfferIDs)
        try container.encode(paidMonths, forKey: .paidMonths)
    }
}

/// A subscription's renewal state, as StoreKit's `RenewalState` names it, spelled as in Lua.
public enum SubscriptionState: String, Sendable, Codable, CaseIterable {
    /// Active and renewing or set to expire at the period's end.
    case subscribed
    /// Ended.
    case expired
    /// Renewal failed; the App Store keeps trying to bill.
    case inBillingRetry = "in_billing_retry"
    /// Renewal failed, but service continues for the grace period.
    case inGracePeriod = "in_grace_period"
    /// Refunded or revoked.
    case revoked

    /// Whether the state gives service: subscribed or in the grace period.
    public var isEntitled: Bool { self == .subscribed || self == .inGracePeriod }
}
