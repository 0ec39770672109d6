import Foundation
import StoreCore
import SQLiteLedger

extension LocalStore {
    /// The store's time now.
    public func now() throws -> Date {
        try state.write { connection in
            let writer = try StoreWriter(connection: connection, context: context)
            try writer.saveState()
            return writer.now
        }
    }

    /// The store's time now, read without a write: what ``now()`` answers, for the reads that
    /// only need to know it (an answer's date, whether a notification is due).
    func currentTime() throws -> Date {
        try state.read { try StoreWriter(connection: $0, context: context).now }
    }

    /// The settings the store runs with: the catalog's, with the overrides of
    /// ``updateSettings(_:)``.
    public func settings() throws -> LocalStoreSettings {
        try state.read { try StoreWriter.loadSettings($0, catalog: catalog) }
    }

    /// The subscriptions of one customer, or of every customer, by customer then group.
    public func subscriptions(customerID: String? = nil) throws -> [Subscription] {
        try state.read { connection in
            try connection.fetchAll(
                """
                SELECT \(SubscriptionRecord.columns) FROM local_store_subscription
                WHERE ?1 IS NULL OR customer_id = ?1 ORDER BY customer_id, group_id, original_transaction_id
                """,
                [customerID]
            ).map { try SubscriptionRecord(row: $0).snapshot }
        }
    }

    /// The customer's own subscription in the group, or `nil` when they never subscribed.
    public func subscription(customerID: String, groupID: String) throws -> Subscription? {
        try state.read { connection in
            try connection.fetchOne(
                """
                SELECT \(SubscriptionRecord.columns) FROM local_store_subscription
                WHERE customer_id = ? AND group_id = ? AND shared_from IS NULL
                """,
                [customerID, groupID]
            ).map { try SubscriptionRecord(row: $0).snapshot }
        }
    }

    /// The latest signed version of every transaction the store issued (to one customer, or to
    /// all), verified, oldest purchase first.
    public func transactions(customerID: String? = nil) throws -> [VerifiedTransaction] {
        let signed = try state.read { connection in
            try connection.fetchAll(
                """
                SELECT jws FROM local_store_transaction WHERE ?1 IS NULL OR customer_id = ?1
                ORDER BY purchase_date, transaction_id
                """,
                [customerID]
            ).map { try $0.decode(String.self, at: 0) }
        }
        return try signed.map(verifiedTransaction)
    }

    /// The Ask to Buy requests (of one customer, or of all), oldest first.
    public func askToBuyRequests(customerID: String? = nil) throws -> [AskToBuyRequest] {
        try state.read { connection in
            try StoreWriter.askToBuyRequests(
                "WHERE ?1 IS NULL OR customer_id = ?1 ORDER BY requested_date, request_id", [customerID], in: connection)
        }
    }

    /// The notifications in the outbox after `sequence` (about one customer, or all), in the
    /// order they were sent, verified.
    public func notifications(customerID: String? = nil, after sequence: Int = 0) throws -> [StoreNotification] {
        let rows = try state.read { connection in
            try connection.fetchAll(
                """
                SELECT sequence, customer_id, signed_payload FROM local_store_notification
                WHERE sequence > ?1 AND (?2 IS NULL OR customer_id = ?2) ORDER BY sequence
                """,
                [sequence, customerID])
        }
        return try rows.map { row in
            let jws: String = try row.decode(column: "signed_payload")
            return StoreNotification(
                sequence: try row.decode(column: "sequence"), customerID: try row.decode(column: "customer_id"),
                signed: VerifiedSignedData(jwsRepresentation: jws, payload: try verifier.verifyAndDecodeNotification(jws)))
        }
    }

    /// The family the customer belongs to, if any.
    public func familyID(of customerID: String) throws -> String? {
        try state.read { connection in
            try connection.fetchValue(
                String.self, "SELECT family_id FROM local_store_family_member WHERE customer_id = ?", [customerID])
        }
    }

    /// Whether the customer can get an introductory offer in the group (StoreKit's
    /// `isEligibleForIntroOffer(for:)`), by Apple's rule: introductory offers are for customers
    /// who never subscribed to any subscription of the group, which includes having received
    /// one there. A subscription shared by a family member does not count; a refunded one does.
    public func isEligibleForIntroductoryOffer(customerID: String, groupID: String) throws -> Bool {
        try state.read {
            try Self.isEligibleForIntroductoryOffer(customerID: customerID, groupID: groupID, in: $0)
        }
    }

    static func isEligibleForIntroductoryOffer(customerID: String, groupID: String,
                                               in connection: DatabaseConnection) throws -> Bool {
        try connection.fetchOne(
            "SELECT 1 FROM local_store_transaction WHERE customer_id = ? AND group_id = ? AND shared_from IS NULL LIMIT 1",
            [customerID, groupID]) == nil
    }
}
