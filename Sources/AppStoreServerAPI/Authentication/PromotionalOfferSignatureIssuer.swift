import Foundation
import StoreCore

/// Signs promotional offers as Apple's `PromotionalOfferV2SignatureCreator` does: a compact
/// ES256 JWT with the header `alg`, `kid`, `typ` and the claims `iss`, `iat`, `bid`, `aud`
/// (`promotional-offer`), a fresh lowercase `nonce`, `productId`, `offerIdentifier` and
/// `transactionId` — what a Retention Messaging answer's `promotionalOfferSignatureV2` carries,
/// and what StoreKit's `Product.PurchaseOption.promotionalOffer(_:compactJWS:)` takes.
public struct PromotionalOfferSignatureIssuer: Sendable {
    /// The claims of one signature.
    public struct Claims: Codable, Sendable, Equatable {
        /// The issuer id of the key's team.
        public var iss: String
        /// When it was signed, in seconds since 1970.
        public var iat: Int64
        /// The app's bundle identifier.
        public var bid: String
        /// `promotional-offer`.
        public var aud: String
        /// A UUID, in lowercase, new for each signature.
        public var nonce: String
        /// The subscription product the offer is for.
        public var productId: String
        /// The offer's identifier.
        public var offerIdentifier: String
        /// The customer's original transaction id, when known (Retention Messaging requires it).
        public var transactionId: String?
    }

    /// The audience every signature names.
    public static let audience = "promotional-offer"

    /// The key that signs: the App Store Connect in-app purchase key.
    public let key: AppStoreServerAPIKey
    /// The bundle identifier every signature names.
    public let bundleID: String

    /// An issuer signing with `key` for `bundleID`.
    public init(key: AppStoreServerAPIKey, bundleID: String) {
        self.key = key
        self.bundleID = bundleID
    }

    /// The signature of `offerID` of `productID` for the subscription `transactionID`, at `now`.
    public func signature(productID: String, offerID: String, transactionID: String?, now: Date = Date(),
                          nonce: UUID = UUID()) throws(AppStoreServerAPIError) -> String {
        let claims = Claims(iss: key.issuerID, iat: Int64(now.timeIntervalSince1970.rounded(.down)), bid: bundleID, aud: Self.audience,
                            nonce: nonce.uuidString.lowercased(), productId: productID, offerIdentifier: offerID,
                            transactionId: transactionID)
        return try AuthenticationTokenIssuer.signJWT(claims, key: key)
    }
}
