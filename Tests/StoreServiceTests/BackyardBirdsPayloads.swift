import Foundation
import StoreCore

/// Signed-data payloads for the Backyard Birds catalog in the Sandbox environment, as the App
/// Store would sign them for a purchase just made; a test signs them with its service's
/// ``RouterTestService/authority``.
enum BackyardBirdsPayloads {
    static let bundleID = "com.example.backyardbirds"
    /// A moment shortly before now: what the App Store would sign for a purchase just made.
    static let now = Date(millisecondsSince1970: Date().millisecondsSince1970 - 60_000)
    static let day: TimeInterval = 86_400

    /// A one-time purchase of `quantity`: a consumable box of pellets by default.
    static func consumable(id: String, productID: String = "pellet.box", quantity: Int32 = 1,
                           appAccountToken: String? = nil) -> JWSTransactionDecodedPayload {
        var payload = JWSTransactionDecodedPayload(
            originalTransactionId: id, transactionId: id, bundleId: bundleID, productId: productID,
            purchaseDate: now, originalPurchaseDate: now, quantity: quantity, type: .consumable,
            inAppOwnershipType: .purchased, signedDate: now, environment: .sandbox, storefront: "USA", transactionReason: .purchase,
            currency: "USD", price: 2990)
        payload.appAccountToken = appAccountToken
        return payload
    }

    /// A Backyard Birds Pass period: `period` 0 is the purchase, later ones are renewals; the
    /// last period of `periods` is running now.
    static func pass(original: String, period: Int, of periods: Int) -> JWSTransactionDecodedPayload {
        let start = now.addingTimeInterval(-Double(periods - 1 - period) * 30 * day - day)
        return JWSTransactionDecodedPayload(
            originalTransactionId: original, transactionId: period == 0 ? original : "\(original)-\(period)",
            webOrderLineItemId: "\(original)-\(period)", bundleId: bundleID, productId: "pass.premium",
            subscriptionGroupIdentifier: "6F3A93AB", purchaseDate: start,
            originalPurchaseDate: now.addingTimeInterval(-Double(periods - 1) * 30 * day - day),
            expiresDate: start.addingTimeInterval(30 * day), quantity: 1, type: .autoRenewableSubscription,
            inAppOwnershipType: .purchased, signedDate: start, environment: .sandbox, storefront: "USA",
            transactionReason: period == 0 ? .purchase : .renewal, currency: "USD", price: 9990)
    }

    /// A notification of `type` carrying `signedTransaction`.
    static func notification(type: NotificationTypeV2, uuid: String = UUID().uuidString.lowercased(),
                             signedTransaction: String) -> ResponseBodyV2DecodedPayload {
        ResponseBodyV2DecodedPayload(
            notificationType: type, notificationUUID: uuid,
            data: NotificationData(environment: .sandbox, bundleId: bundleID, signedTransactionInfo: signedTransaction),
            version: "2.0", signedDate: now)
    }
}
