import AppStoreServerAPI
import Foundation
import StoreCore

extension LocalStore {
    /// A transaction as the API's reads see it: the record, and when its latest version was signed.
    struct APITransaction {
        let record: TransactionRecord
        let payload: JWSTransactionDecodedPayload
        /// When the latest version was signed: the order of a history.
        var changed: Int64 { payload.signedDate?.millisecondsSince1970 ?? 0 }
    }

    /// The transaction `transactionID`, or Apple's failures for a malformed or unknown id.
    func apiTransaction(_ transactionID: String) throws -> APITransaction {
        guard !transactionID.isEmpty, transactionID.utf8.count <= 64, transactionID.allSatisfy(\.isASCIIDigit) else {
            throw ServerAPIFailure.badRequest(.invalidTransactionId, "\(transactionID) is not a transaction id")
        }
        let record = try state.read { connection in
            try connection.fetchOne("SELECT \(TransactionRecord.columns) FROM local_store_transaction WHERE transaction_id = ?",
                                    [transactionID]).map(TransactionRecord.init(row:))
        }
        guard let record else { throw ServerAPIFailure.notFound(.transactionIdNotFound, "no transaction \(transactionID)") }
        return APITransaction(record: record, payload: try record.payload())
    }

    /// Every transaction of `customerID`, oldest change first.
    func apiTransactions(customerID: String) throws -> [APITransaction] {
        let records = try state.read { connection in
            try connection.fetchAll("SELECT \(TransactionRecord.columns) FROM local_store_transaction WHERE customer_id = ?", [customerID])
                .map(TransactionRecord.init(row:))
        }
        return try records.map { APITransaction(record: $0, payload: try $0.payload()) }
            .sorted { ($0.changed, $0.record.id) < ($1.changed, $1.record.id) }
    }

    /// The subscriptions of `customerID` (their own and shared with them), by group.
    func apiSubscriptions(customerID: String) throws -> [SubscriptionRecord] {
        try state.read { connection in
            try connection.fetchAll(
                "SELECT \(SubscriptionRecord.columns) FROM local_store_subscription WHERE customer_id = ? ORDER BY group_id, original_transaction_id",
                [customerID]
            ).map(SubscriptionRecord.init(row:))
        }
    }

    /// The subscription's latest signed renewal info, signed now when it has none yet.
    func apiRenewalInfo(_ subscription: SubscriptionRecord) throws -> String {
        if let jws = subscription.renewalInfoJWS { return jws }
        return try serially {
            try perform { writer -> String in
                guard var current = try writer.subscription(originalID: subscription.originalID) else {
                    throw ServerAPIFailure.notFound(.originalTransactionIdNotFound, "no subscription \(subscription.originalID)")
                }
                let jws = try writer.issueRenewalInfo(for: &current, at: writer.now)
                try current.save(in: writer.connection)
                return jws
            }.0
        }
    }

    /// The latest signed version of a transaction.
    func latestTransactionJWS(_ transactionID: String) throws -> String? {
        try state.read { try $0.fetchValue(String.self, "SELECT jws FROM local_store_transaction WHERE transaction_id = ?", [transactionID]) }
    }

    /// The transactions whose order id is `orderID`.
    func apiOrder(_ orderID: String) throws -> [APITransaction] {
        let records = try state.read { connection in
            try connection.fetchAll("SELECT \(TransactionRecord.columns) FROM local_store_transaction WHERE shared_from IS NULL")
                .map(TransactionRecord.init(row:))
        }
        return try records.filter { self.orderID(ofTransaction: $0.id) == orderID }
            .map { APITransaction(record: $0, payload: try $0.payload()) }
    }

    /// A notification of the outbox as notification history serves it.
    struct APINotification {
        let sequence: Int
        let signedDate: Int64
        let signedPayload: String
    }

    /// The outbox's notifications signed in `[start, end)`, after `sequence`, optionally of one
    /// type and subtype, or about one customer.
    func apiNotifications(start: Int64, end: Int64, after sequence: Int, type: String?, subtype: String?,
                          customerID: String?, onlyFailures: Bool) throws -> [APINotification] {
        try state.read { connection in
            try connection.fetchAll(
                """
                SELECT sequence, signed_date, signed_payload FROM local_store_notification AS n
                WHERE signed_date >= ?1 AND signed_date < ?2 AND sequence > ?3
                  AND (?4 IS NULL OR notification_type = ?4) AND (?5 IS NULL OR subtype = ?5)
                  AND (?6 IS NULL OR customer_id = ?6)
                  AND (NOT ?7 OR (send_attempt_count > 0 AND NOT EXISTS (
                      SELECT 1 FROM local_store_send_attempt AS a WHERE a.notification_sequence = n.sequence AND a.result = 'SUCCESS')))
                ORDER BY sequence
                """,
                [start, end, sequence, type, subtype, customerID, onlyFailures]
            ).map { row in
                APINotification(sequence: try row.decode(column: "sequence"), signedDate: try row.decode(column: "signed_date"),
                                signedPayload: try row.decode(column: "signed_payload"))
            }
        }
    }

    /// The consumption information received for a transaction (or every one), oldest first.
    public func consumptionRecords(transactionID: String? = nil) throws -> [ConsumptionRecord] {
        try state.read { connection in
            try connection.fetchAll(
                """
                SELECT transaction_id, version, body, received_date FROM local_store_consumption
                WHERE ?1 IS NULL OR transaction_id = ?1 ORDER BY sequence
                """,
                [transactionID]
            ).map { row in
                ConsumptionRecord(transactionID: try row.decode(column: "transaction_id"), version: try row.decode(column: "version"),
                                  body: try row.decode(column: "body"),
                                  receivedDate: Date(millisecondsSince1970: try row.decode(column: "received_date")))
            }
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
