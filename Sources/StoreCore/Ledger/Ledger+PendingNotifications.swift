import Foundation
import SignedData

extension Ledger {
    /// Keeps a notification whose customer is not known yet, in the open write: its renewal
    /// info is stored now (it needs no customer), its transaction kept verbatim with the ids and
    /// token that will find its customer. A notification kept before stays kept.
    static func keepPending(
        _ notification: ResponseBodyV2DecodedPayload, uuid: String, transaction: Signed<JWSTransactionDecodedPayload>,
        renewalInfo: StoredRenewalInfo?, at now: Int64, in ledger: any LedgerWriting
    ) throws -> NotificationIngestResult {
        _ = try receivedTransaction(transaction.payload, jwsRepresentation: transaction.jws, customerID: "pending")
        if let renewalInfo {
            _ = try store(renewalInfo: renewalInfo, at: now, in: ledger)
        }
        let transactionID = try requiredText(transaction.payload.transactionId, "transaction", "transactionId")
        let originalID = try requiredText(transaction.payload.originalTransactionId, "transaction", "originalTransactionId")
        _ = try ledger.insertPendingNotification(PendingNotification(
            uuid: uuid, type: notification.notificationType?.rawValue, subtype: notification.subtype?.rawValue,
            signedDate: notification.signedDate?.millisecondsSince1970, transactionJWS: transaction.jws,
            transactionID: transactionID, originalTransactionID: originalID,
            appAccountToken: AppAccountToken.canonical(transaction.payload.appAccountToken), receivedDate: now))
        let token = transaction.payload.appAccountToken.map { " or app account token \($0)" } ?? ""
        return .pending(reason: "no customer is known for transaction \(transactionID) (original transaction \(originalID)\(token))")
    }

    /// The notifications kept because their transaction contradicts the stored one, oldest first.
    public func notificationConflicts() throws -> [NotificationConflict] {
        try reading { try $0.notificationConflicts() }
    }

    /// The notifications kept for customers not known yet, oldest first.
    public func pendingNotifications() throws -> [PendingNotification] {
        try reading { try $0.pendingNotifications() }
    }

    /// Processes every kept notification whose customer is known now — registered with its
    /// transaction's app account token, or owning a transaction with its original id — with
    /// `decide` for the grants, and forgets it. Notifications still without a customer stay
    /// kept, and so does one whose processing fails (a conflicting transaction, a storage
    /// failure), without holding up the others. Safe to run from several processes at once: a
    /// notification is processed once by its UUID.
    ///
    /// - Returns: what processing each resolved notification did, oldest first.
    @discardableResult
    public func resolvePendingNotifications(decide: (StoredTransaction) throws -> [Grant]) throws -> [NotificationIngestResult] {
        var results: [NotificationIngestResult] = []
        for pending in try pendingNotifications() {
            guard let transaction = try? Self.storedTransactionPayload(pending.transactionJWS),
                  let owner = try? resolveCustomer(of: transaction)
            else { continue }
            let notification = ResponseBodyV2DecodedPayload(
                notificationType: pending.type.map(NotificationTypeV2.init(rawValue:)),
                subtype: pending.subtype.map(NotificationSubtype.init(rawValue:)), notificationUUID: pending.uuid,
                data: NotificationData(signedTransactionInfo: pending.transactionJWS),
                signedDate: pending.signedDate.map(Date.init(millisecondsSince1970:)))
            // Forgotten in the write that records the notification processed, or kept.
            guard let result = try? ingest(NotificationDelivery(
                notification: notification, transaction: transaction, renewalInfo: nil, customerID: owner, keptAs: pending.uuid),
                decide: decide)
            else { continue }
            results.append(result)
        }
        return results
    }
}
