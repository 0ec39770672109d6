import Foundation
import StoreCore
import SQLiteLedger

extension LocalStore {
    /// Delivers what the store owes the app, oldest first: each transaction and renewal info
    /// is verified and ingested into the ledger, then announced; each notification is verified
    /// and announced. A delivery is marked done only after it succeeded, so one that fails is
    /// retried by the next operation.
    func deliverPending() throws {
        while true {
            let pending = try state.read { connection in
                try connection.fetchAll(
                    """
                    SELECT sequence, customer_id, kind, jws FROM local_store_delivery
                    WHERE delivered_date IS NULL ORDER BY sequence LIMIT 64
                    """)
            }
            guard !pending.isEmpty else { return }
            for row in pending {
                let sequence: Int64 = try row.decode(column: "sequence")
                let customerID: String = try row.decode(column: "customer_id")
                let jws: String = try row.decode(column: "jws")
                let kindName: String = try row.decode(column: "kind")
                guard let kind = StoreWriter.DeliveryKind(rawValue: kindName) else {
                    throw SQLiteError(extendedResultCode: .corrupt, message: "unknown delivery kind '\(kindName)'",
                                      sql: "SELECT … FROM local_store_delivery")
                }
                let update: StoreUpdate
                switch kind {
                case .transaction:
                    let transaction = try ingestTransaction(jws, customerID: customerID)
                    update = .transaction(transaction, customerID: customerID)
                case .renewalInfo:
                    let payload = try verifier.verifyAndDecodeRenewalInfo(jws)
                    try ledger.ingest(renewalInfo: payload, jwsRepresentation: jws)
                    update = .renewalInfo(VerifiedRenewalInfo(jwsRepresentation: jws, payload: payload), customerID: customerID)
                case .notification:
                    let payload = try verifier.verifyAndDecodeNotification(jws)
                    let sequence = try state.read { connection in
                        try connection.fetchValue(
                            Int.self, "SELECT sequence FROM local_store_notification WHERE notification_uuid = ?",
                            [payload.notificationUUID])
                    }
                    update = .notification(StoreNotification(
                        sequence: sequence ?? 0, customerID: customerID,
                        signed: VerifiedSignedData(jwsRepresentation: jws, payload: payload)))
                }
                try state.write { connection in
                    try connection.execute(
                        "UPDATE local_store_delivery SET delivered_date = ? WHERE sequence = ?",
                        [Date().millisecondsSince1970, sequence])
                }
                announce(update)
            }
        }
    }

    /// Verifies a signed transaction and ingests it into the ledger for `customerID`.
    @discardableResult
    func ingestTransaction(_ jws: String, customerID: String) throws -> VerifiedTransaction {
        let payload = try verifier.verifyAndDecodeTransaction(jws)
        try ledger.ingest(transaction: payload, jwsRepresentation: jws, customerID: customerID, decide: decide)
        return VerifiedTransaction(jwsRepresentation: jws, payload: payload)
    }

    /// Verifies a transaction the store just signed.
    func verifiedTransaction(_ jws: String) throws -> VerifiedTransaction {
        VerifiedTransaction(jwsRepresentation: jws, payload: try verifier.verifyAndDecodeTransaction(jws))
    }

    /// Restores a customer's purchases, as `AppStore.sync()` does: the latest signed version
    /// of each of their transactions, and the latest renewal info of each of their
    /// subscriptions, is delivered again — verified, ingested (the ledger stores and grants
    /// each transaction once, so this changes nothing already there), and announced.
    ///
    /// - Returns: the customer's transactions, oldest purchase first.
    /// - Throws: ``LocalStoreError/simulatedFailure(_:)`` while the settings simulate an App
    ///   Store Sync failure; nothing is delivered then.
    @discardableResult
    public func sync(customer customerID: String) throws -> [VerifiedTransaction] {
        guard !customerID.isEmpty else { throw LocalStoreError.emptyCustomerID }
        return try serially {
            if try settings().simulatedFailures.contains(.appStoreSync) {
                throw LocalStoreError.simulatedFailure(.appStoreSync)
            }
            _ = try catchUp()
            let (transactions, renewalInfos) = try state.read { connection in
                (try connection.fetchAll(
                    """
                    SELECT jws FROM local_store_transaction WHERE customer_id = ?
                    ORDER BY purchase_date, transaction_id
                    """,
                    [customerID]).map { try $0.decode(String.self, at: 0) },
                 try connection.fetchAll(
                    """
                    SELECT renewal_info_jws FROM local_store_subscription
                    WHERE customer_id = ? AND renewal_info_jws IS NOT NULL ORDER BY original_transaction_id
                    """,
                    [customerID]).map { try $0.decode(String.self, at: 0) })
            }
            var restored: [VerifiedTransaction] = []
            for jws in transactions {
                let transaction = try ingestTransaction(jws, customerID: customerID)
                announce(.transaction(transaction, customerID: customerID))
                restored.append(transaction)
            }
            for jws in renewalInfos {
                let payload = try verifier.verifyAndDecodeRenewalInfo(jws)
                try ledger.ingest(renewalInfo: payload, jwsRepresentation: jws)
                announce(.renewalInfo(VerifiedRenewalInfo(jwsRepresentation: jws, payload: payload), customerID: customerID))
            }
            return restored
        }
    }

    /// Delivers the outbox to `target` as a server receives it: each notification after
    /// `sequence` is verified, the transaction and renewal info it carries are verified, and
    /// the ledger ingests them for the notification's customer; a notification already
    /// processed changes nothing.
    ///
    /// - Returns: what the ledger did with each notification, in outbox order.
    @discardableResult
    public func replayNotifications(into target: Ledger, after sequence: Int = 0,
                                    decide: (StoredTransaction) throws -> [Grant]) throws -> [NotificationIngestResult] {
        try notifications(after: sequence).map { notification in
            let payload = try verifier.verifyAndDecodeNotification(notification.signedPayload)
            let transaction = try payload.data?.signedTransactionInfo.map { try verifier.verifyAndDecodeTransaction($0) }
            let renewalInfo = try payload.data?.signedRenewalInfo.map { try verifier.verifyAndDecodeRenewalInfo($0) }
            return try target.ingest(notification: payload, transaction: transaction, renewalInfo: renewalInfo,
                                     customerID: notification.customerID, decide: decide)
        }
    }
}
