import Foundation
import LuaBridge

/// A subscriber opening the cancel screen, as Apple's Retention Messaging API asks about it:
/// the `request` argument of `retention_message(ctx, request)`.
///
/// In Lua: `{ original_transaction_id, product_id, locale, request_id, environment, signed_at }`,
/// `signed_at` in epoch seconds.
public struct RetentionRequest: Sendable, Equatable, Codable {
    /// The subscription the customer is about to cancel.
    public var originalTransactionID: String
    /// The subscription product the customer has now.
    public var productID: String
    /// The device's locale, such as `en_US`.
    public var locale: String
    /// Apple's identifier of the request.
    public var requestID: String
    /// The environment, in Apple's words (`Production`, `Sandbox`, `Xcode`).
    public var environment: String
    /// When Apple signed the request.
    public var signedAt: Date

    /// A request.
    public init(originalTransactionID: String, productID: String, locale: String = "en_US", requestID: String = "",
                environment: String = "Xcode", signedAt: Date) {
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.locale = locale
        self.requestID = requestID
        self.environment = environment
        self.signedAt = signedAt
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionID = "original_transaction_id", productID = "product_id", locale, requestID = "request_id"
        case environment, signedAt = "signed_at"
    }

    /// Reads a request as `storerules eval` and `decide` take it: `product_id` required, every
    /// other field optional, an unknown one refused; `signed_at` in epoch seconds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        productID = try container.decode(String.self, forKey: .productID)
        originalTransactionID = try container.decodeIfPresent(String.self, forKey: .originalTransactionID) ?? ""
        locale = try container.decodeIfPresent(String.self, forKey: .locale) ?? "en_US"
        requestID = try container.decodeIfPresent(String.self, forKey: .requestID) ?? ""
        environment = try container.decodeIfPresent(String.self, forKey: .environment) ?? "Xcode"
        signedAt = try container.decodeEpochSecondsIfPresent(forKey: .signedAt) ?? Date(timeIntervalSince1970: 0)
    }

    /// Writes the request as Lua sees it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(originalTransactionID, forKey: .originalTransactionID)
        try container.encode(productID, forKey: .productID)
        try container.encode(locale, forKey: .locale)
        try container.encode(requestID, forKey: .requestID)
        try container.encode(environment, forKey: .environment)
        try container.encode(EpochSeconds.whole(signedAt), forKey: .signedAt)
    }

    /// Reads a request as `eval --arg` and `decide` give it, signed at `now` unless it says.
    ///
    /// - Throws: ``PolicyInputError`` naming the field that is wrong.
    public static func decode(_ value: LuaValue, signedAt now: Date) throws(PolicyInputError) -> RetentionRequest {
        try PolicyInputError.decode(RetentionRequest.self, from: value, defaults: ["signed_at": .integer(EpochSeconds.whole(now))])
    }

    /// The request as the hook receives it.
    public var luaValue: LuaValue {
        .table(LuaTable(hash: [
            .string("original_transaction_id"): .string(originalTransactionID), .string("product_id"): .string(productID),
            .string("locale"): .string(locale), .string("request_id"): .string(requestID),
            .string("environment"): .string(environment), .string("signed_at"): .integer(EpochSeconds.whole(signedAt)),
        ]))
    }
}
