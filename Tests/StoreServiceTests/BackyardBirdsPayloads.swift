import Foundation
import StoreCore

/// Signed-data payloads for the Backyard Birds catalog in the Sandbox environment, as the App
/// Store would sign them for a purchase just made; a test signs them with the authority its
/// service trusts.
enum BackyardBirdsPayloads {
    static let bundleID = "com.example.backyardbirds"
    /// A moment shortly before now: what the App Store would sign for a purchase just made.
    static let now = Date(millisecondsSince1970: Date().millisecondsSince1970 - 60_000)
    static let day: TimeInterval = 86_400

    /// A one-time purchase of `quantity`: a consumable box of pellets by default; revoked at
    /// `revokedAt` when given.
    static func consumable(id: String, productID: String = "pellet.box", type: TransactionProductType = .consumable, quantity: Int32 = 1,
                           appAccountToken: String? = nil, revokedAt: Date? = nil, signedAt: Date = now) -> JWSTransactionDecodedPayload {
        var payload = JWSTransactionDecodedPayload(
            originalTransactionId: id, transactionId: id, bundleId: bundleID, productId: productID,
            purchaseDate: now, originalPurchaseDate: now, quantity: quantity, type: type,
            inAppOwnershipType: .purchased, signedDate: signedAt, revocationReason: revokedAt == nil ? nil : .refundedForOtherReason,
            revocationDate: revokedAt, environment: .sandbox, storefront: "USA", transactionReason: .purchase,
            currency: "USD", price: 2990)
        payload.appAccountToken = appAccountToken
        return payload
    }

    /// A Backyard Birds Pass period: `period` 0 is the purchase, later ones are renewals; the
    /// last period of `periods` is running now.
    static func pass(original: String, period: Int, of periods: Int, productID: String = "pass.premium") -> JWSTransactionDecodedPayload {
        let start = now.addingTimeInterval(-Double(periods - 1 - period) * 30 * day - day)
        return JWSTransactionDecodedPayload(
            originalTransactionId: original, transactionId: period == 0 ? original : "\(original)-\(period)",
            webOrderLineItemId: "\(original)-\(period)", bundleId: bundleID, productId: productID,
            subscriptionGroupIdentifier: "6F3A93AB", purchaseDate: start,
            originalPurchaseDate: now.addingTimeInterval(-Double(periods - 1) * 30 * day - day),
            expiresDate: start.addingTimeInterval(30 * day), quantity: 1, type: .autoRenewableSubscription,
            inAppOwnershipType: .purchased, signedDate: start, environment: .sandbox, storefront: "USA",
            transactionReason: period == 0 ? .purchase : .renewal, currency: "USD", price: 9990)
    }

    /// The renewal info of a pass.
    static func renewalInfo(original: String, productID: String = "pass.premium", autoRenew: Bool) -> JWSRenewalInfoDecodedPayload {
        JWSRenewalInfoDecodedPayload(
            originalTransactionId: original, autoRenewProductId: productID, productId: productID,
            autoRenewStatus: autoRenew ? .on : .off, isInBillingRetryPeriod: false, signedDate: now, environment: .sandbox,
            renewalDate: now.addingTimeInterval(29 * day))
    }

    /// A notification of `type` carrying `signedTransaction` (and `signedRenewalInfo`).
    static func notification(type: NotificationTypeV2, uuid: String = UUID().uuidString.lowercased(),
                             signedTransaction: String, signedRenewalInfo: String? = nil) -> ResponseBodyV2DecodedPayload {
        ResponseBodyV2DecodedPayload(
            notificationType: type, notificationUUID: uuid,
            data: NotificationData(environment: .sandbox, bundleId: bundleID, signedTransactionInfo: signedTransaction,
                                   signedRenewalInfo: signedRenewalInfo),
            version: "2.0", signedDate: now)
    }
}
