import Foundation
import StoreCore

/// Payloads for the shared ledger suite. The ledger stores JWS strings verbatim and leaves
/// verification to the layer before it, so these are unsigned JWS (`alg: none`) around the
/// real encoded payloads: distinct payloads give distinct strings, as signed ones would.
enum LedgerPayloads {
    /// Milliseconds since 1970 of the first day of the scripted year.
    static let start: Int64 = 1_700_000_000_000
    static let day: Int64 = 86_400_000

    static func date(_ offset: Int64) -> Date { Date(millisecondsSince1970: start + offset) }

    /// A consumable purchase or a subscription period.
    static func transaction(
        id: String, originalID: String? = nil, productID: String = "pellet.box", type: TransactionProductType = .consumable,
        quantity: Int32 = 1, purchasedAt: Int64 = 0, expiresAt: Int64? = nil, signedAt: Int64 = 0, revokedAt: Int64? = nil,
        appAccountToken: String? = nil
    ) -> JWSTransactionDecodedPayload {
        JWSTransactionDecodedPayload(
            originalTransactionId: originalID ?? id, transactionId: id, bundleId: "com.example", productId: productID,
            subscriptionGroupIdentifier: type == .autoRenewableSubscription ? "6F3A93AB" : nil,
            purchaseDate: date(purchasedAt), originalPurchaseDate: date(purchasedAt), expiresDate: expiresAt.map(date),
            quantity: quantity, type: type, appAccountToken: appAccountToken, inAppOwnershipType: .purchased,
            signedDate: date(signedAt), revocationReason: revokedAt == nil ? nil : .refundedDueToIssue,
            revocationDate: revokedAt.map(date), environment: .sandbox)
    }

    /// Renewal info signed at `signedAt`.
    static func renewalInfo(originalID: String, productID: String, signedAt: Int64, autoRenew: AutoRenewStatus) -> JWSRenewalInfoDecodedPayload {
        JWSRenewalInfoDecodedPayload(
            originalTransactionId: originalID, autoRenewProductId: productID, productId: productID, autoRenewStatus: autoRenew,
            signedDate: date(signedAt), environment: .sandbox, renewalDate: date(signedAt + 30 * day))
    }

    /// The unsigned compact JWS of `payload`.
    static func jws(_ payload: some Encodable) -> String {
        let encoded = (try? SignedPayloadJSON.makeEncoder().encode(payload)) ?? Data()
        return base64URL(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + base64URL(encoded) + "."
    }

    /// One notification carrying a transaction and, for subscriptions, its renewal info.
    struct Delivery: Sendable {
        let uuid: String
        let customerID: String
        let transaction: JWSTransactionDecodedPayload
        let renewalInfo: JWSRenewalInfoDecodedPayload?

        var notification: ResponseBodyV2DecodedPayload {
            ResponseBodyV2DecodedPayload(
                notificationType: .didRenew, notificationUUID: uuid,
                data: NotificationData(environment: .sandbox, appAppleId: 1, bundleId: "com.example",
                                       signedTransactionInfo: jws(transaction), signedRenewalInfo: renewalInfo.map(jws)),
                version: "2.0", signedDate: transaction.signedDate)
        }
    }

    /// A scripted year of several customers: monthly renewals of a pass (each month signed
    /// later), boxes of pellets bought along the way, one box refunded and one renewal
    /// refunded, renewal info turning auto-renew off near the end.
    static func scriptedYear(customers: Int) -> [Delivery] {
        var deliveries: [Delivery] = []
        for customer in 0..<customers {
            let customerID = "customer-\(customer)"
            let original = "9\(customer)0000"
            for month in 0..<12 {
                let start = Int64(month) * 30 * day
                let renewalID = "9\(customer)\(String(format: "%04d", month + 1))"
                let period = { (signedAt: Int64, revokedAt: Int64?) in
                    transaction(
                        id: month == 0 ? original : renewalID, originalID: original, productID: "pass.individual",
                        type: .autoRenewableSubscription, purchasedAt: start, expiresAt: start + 30 * day, signedAt: signedAt,
                        revokedAt: revokedAt)
                }
                let autoRenew: AutoRenewStatus = month >= 10 ? .off : .on
                deliveries.append(Delivery(
                    uuid: "sub-\(customer)-\(month)", customerID: customerID, transaction: period(start, nil),
                    renewalInfo: renewalInfo(originalID: original, productID: "pass.individual", signedAt: start, autoRenew: autoRenew)))
                if customer % 2 == 0 && month == 5 {
                    deliveries.append(Delivery(
                        uuid: "sub-refund-\(customer)-\(month)", customerID: customerID,
                        transaction: period(start + 3 * day, start + 3 * day), renewalInfo: nil))
                }
                if month % 3 == 0 {
                    let boxID = "8\(customer)\(String(format: "%04d", month))"
                    let box = transaction(id: boxID, quantity: Int32(1 + month % 2), purchasedAt: start + day, signedAt: start + day)
                    deliveries.append(Delivery(uuid: "box-\(customer)-\(month)", customerID: customerID, transaction: box, renewalInfo: nil))
                    if month == 6 {
                        let refund = transaction(id: boxID, quantity: box.quantity ?? 1, purchasedAt: start + day,
                                                 signedAt: start + 4 * day, revokedAt: start + 4 * day)
                        deliveries.append(Delivery(uuid: "refund-\(customer)-\(month)", customerID: customerID,
                                                   transaction: refund, renewalInfo: nil))
                    }
                }
            }
        }
        return deliveries
    }

    /// Five pellets a box, nothing for subscriptions.
    static func grants(_ transaction: StoredTransaction) -> [Grant] {
        transaction.productType == .consumable ? [Grant(item: "pellet", amount: 5 * transaction.purchasedQuantity)] : []
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
