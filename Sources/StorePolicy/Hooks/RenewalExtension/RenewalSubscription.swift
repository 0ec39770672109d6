import Foundation
import LuaBridge

/// One subscriber's subscription, as `renewal_extension(ctx, subscription, incident)` receives
/// it: `{ original_transaction_id, product_id, group_id, state, expires_date, storefront,
/// will_auto_renew }`, `expires_date` in epoch seconds.
public struct RenewalSubscription: Sendable, Equatable, Codable {
    /// The subscription's original transaction id.
    public var originalTransactionID: String
    /// The product it renews now.
    public var productID: String
    /// Its subscription group.
    public var groupID: String
    /// Its state now, as `ctx.customer.subscriptions` names states.
    public var state: SubscriptionState
    /// When the current period ends.
    public var expiresDate: Date?
    /// The storefront it was bought in (ISO 3166-1 alpha-3).
    public var storefront: String
    /// Whether it renews.
    public var willAutoRenew: Bool

    /// A subscription.
    public init(originalTransactionID: String, productID: String, groupID: String, state: SubscriptionState = .subscribed,
                expiresDate: Date? = nil, storefront: String = "USA", willAutoRenew: Bool = true) {
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.groupID = groupID
        self.state = state
        self.expiresDate = expiresDate
        self.storefront = storefront
        self.willAutoRenew = willAutoRenew
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionID = "original_transaction_id", productID = "product_id", groupID = "group_id", state
        case expiresDate = "expires_date", storefront, willAutoRenew = "will_auto_renew"
    }

    /// Reads a subscription as `eval --arg` and `decide` take it: `product_id` required, the
    /// rest optional (`state` subscribed, `storefront` USA, renewing), an unknown field refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        productID = try container.decode(String.self, forKey: .productID)
        originalTransactionID = try container.decodeIfPresent(String.self, forKey: .originalTransactionID) ?? ""
        groupID = try container.decodeIfPresent(String.self, forKey: .groupID) ?? ""
        state = try container.decodeIfPresent(SubscriptionState.self, forKey: .state) ?? .subscribed
        expiresDate = try container.decodeEpochSecondsIfPresent(forKey: .expiresDate)
        storefront = try container.decodeIfPresent(String.self, forKey: .storefront) ?? "USA"
        willAutoRenew = try container.decodeIfPresent(Bool.self, forKey: .willAutoRenew) ?? true
    }

    /// Writes the subscription as Lua sees it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(originalTransactionID, forKey: .originalTransactionID)
        try container.encode(productID, forKey: .productID)
        try container.encode(groupID, forKey: .groupID)
        try container.encode(state, forKey: .state)
        try container.encodeIfPresent(expiresDate.map(EpochSeconds.whole), forKey: .expiresDate)
        try container.encode(storefront, forKey: .storefront)
        try container.encode(willAutoRenew, forKey: .willAutoRenew)
    }

    /// The subscription as the hook receives it.
    public var luaValue: LuaValue {
        var fields: [LuaValue: LuaValue] = [
            .string("original_transaction_id"): .string(originalTransactionID), .string("product_id"): .string(productID),
            .string("group_id"): .string(groupID), .string("state"): .string(state.rawValue),
            .string("storefront"): .string(storefront), .string("will_auto_renew"): .boolean(willAutoRenew),
        ]
        if let expiresDate { fields[.string("expires_date")] = .integer(EpochSeconds.whole(expiresDate)) }
        return .table(LuaTable(hash: fields))
    }
}
