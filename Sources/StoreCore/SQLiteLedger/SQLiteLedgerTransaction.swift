import Foundation

/// One SQLite transaction of the ledger: the ledger's reads and writes as SQL over one
/// connection, inside the transaction ``SQLiteLedgerStorage`` began.
struct SQLiteLedgerTransaction: LedgerWriting {
    let connection: DatabaseConnection

    // MARK: - Reads

    func customer(id: String) throws -> Customer? {
        try connection.fetchOne("SELECT \(LedgerRecords.customerColumns) FROM customer WHERE id = ?", [id])
            .map(LedgerRecords.customer(from:))
    }

    func customerID(appAccountToken: String) throws -> String? {
        try connection.fetchValue(String.self, "SELECT id FROM customer WHERE app_account_token = ?", [appAccountToken])
    }

    func customers() throws -> [Customer] {
        try connection.fetchAll("SELECT \(LedgerRecords.customerColumns) FROM customer ORDER BY created_date, id")
            .map(LedgerRecords.customer(from:))
    }

    func transaction(id: String) throws -> StoredTransaction? {
        try connection.fetchOne(
            "SELECT \(LedgerRecords.transactionColumns) FROM store_transaction WHERE transaction_id = ?", [id]
        ).map(LedgerRecords.transaction(from:))
    }

    func transactions(_ query: LedgerTransactionQuery) throws -> [StoredTransaction] {
        let (clause, arguments): (String, StatementArguments) = switch query {
        case .customer(let customerID): ("customer_id = ?", [customerID])
        case .customerProduct(let customerID, let productID): ("customer_id = ? AND product_id = ?", [customerID, productID])
        case .original(let originalID): ("original_transaction_id = ?", [originalID])
        case .unfinished(let customerID): ("grant_state = 'unfinished' AND (?1 IS NULL OR customer_id = ?1)", [customerID])
        case .all: ("1 = 1", [])
        }
        return try connection.fetchAll(
            "SELECT \(LedgerRecords.transactionColumns) FROM store_transaction WHERE \(clause) ORDER BY purchase_date, transaction_id",
            arguments
        ).map(LedgerRecords.transaction(from:))
    }

    func transactionsWithoutSignedData(customerID: String) throws -> [StoredTransaction] {
        try connection.fetchAll(
            """
            SELECT \(LedgerRecords.transactionColumnsWithoutSignedData) FROM store_transaction
            WHERE customer_id = ? ORDER BY purchase_date, transaction_id
            """,
            [customerID]
        ).map(LedgerRecords.transaction(from:))
    }

    func latestTransactions(customerID: String) throws -> [StoredTransaction] {
        try connection.fetchAll(
            """
            SELECT \(LedgerRecords.transactionColumns) FROM (
                SELECT *, row_number() OVER (
                    PARTITION BY product_id ORDER BY purchase_date DESC, transaction_id DESC
                ) AS recency
                FROM store_transaction WHERE customer_id = ?
            ) WHERE recency = 1 ORDER BY product_id
            """,
            [customerID]
        ).map(LedgerRecords.transaction(from:))
    }

    func ownerOfTransaction(id: String, originalID: String) throws -> String? {
        try connection.fetchValue(
            String.self,
            "SELECT customer_id FROM store_transaction WHERE transaction_id = ? OR original_transaction_id = ? LIMIT 1",
            [id, originalID])
    }

    func versions(ofTransaction transactionID: String) throws -> [TransactionVersion] {
        try connection.fetchAll(
            """
            SELECT \(LedgerRecords.versionColumns) FROM transaction_version
            WHERE transaction_id = ? ORDER BY signed_date, received_date, jws
            """,
            [transactionID]
        ).map(LedgerRecords.version(from:))
    }

    func grants(ofTransaction transactionID: String) throws -> [Grant] {
        try connection.fetchAll(
            "SELECT item, amount FROM transaction_grant WHERE transaction_id = ? ORDER BY position", [transactionID]
        ).map(LedgerRecords.grant(from:))
    }

    func reversedGrants(ofTransaction transactionID: String) throws -> [Grant] {
        try connection.fetchAll(
            """
            SELECT g.item, g.amount FROM grant_reversal r
            JOIN transaction_grant g ON g.transaction_id = r.transaction_id AND g.position = r.position
            WHERE r.transaction_id = ? ORDER BY r.position
            """,
            [transactionID]
        ).map(LedgerRecords.grant(from:))
    }

    func unreversedGrants(ofTransaction transactionID: String) throws -> [(position: Int, grant: Grant)] {
        try connection.fetchAll(
            """
            SELECT g.position, g.item, g.amount FROM transaction_grant g
            WHERE g.transaction_id = ? AND NOT EXISTS (
                SELECT 1 FROM grant_reversal r WHERE r.transaction_id = g.transaction_id AND r.position = g.position)
            ORDER BY g.position
            """,
            [transactionID]
        ).map { row in (try row.decode(Int.self, column: "position"), try LedgerRecords.grant(from: row)) }
    }

    func balances(customerID: String) throws -> [String: Int] {
        let rows = try connection.fetchAll("SELECT item, amount FROM balance WHERE customer_id = ? AND amount <> 0", [customerID])
        return try Dictionary(uniqueKeysWithValues: rows.map {
            (try $0.decode(String.self, column: "item"), try $0.decode(Int.self, column: "amount"))
        })
    }

    func renewalInfo(originalTransactionID: String) throws -> StoredRenewalInfo? {
        try connection.fetchOne(
            "SELECT \(LedgerRecords.renewalInfoColumns) FROM renewal_info WHERE original_transaction_id = ?",
            [originalTransactionID]
        ).map(LedgerRecords.renewalInfo(from:))
    }

    func isNotificationProcessed(_ notificationUUID: String) throws -> Bool {
        try connection.fetchOne("SELECT 1 FROM processed_notification WHERE notification_uuid = ?", [notificationUUID]) != nil
    }

    func renewalInfos() throws -> [StoredRenewalInfo] {
        try connection.fetchAll(
            "SELECT \(LedgerRecords.renewalInfoColumns) FROM renewal_info ORDER BY original_transaction_id"
        ).map(LedgerRecords.renewalInfo(from:))
    }

    func processedNotifications() throws -> [ProcessedNotification] {
        try connection.fetchAll(
            "SELECT \(LedgerRecords.processedNotificationColumns) FROM processed_notification ORDER BY notification_uuid"
        ).map(LedgerRecords.processedNotification(from:))
    }

    func notificationConflicts() throws -> [NotificationConflict] {
        try connection.fetchAll(
            "SELECT \(LedgerRecords.notificationConflictColumns) FROM notification_conflict ORDER BY received_date, notification_uuid"
        ).map(LedgerRecords.notificationConflict(from:))
    }

    func pendingNotifications() throws -> [PendingNotification] {
        try connection.fetchAll(
            "SELECT \(LedgerRecords.pendingNotificationColumns) FROM pending_notification ORDER BY received_date, notification_uuid"
        ).map(LedgerRecords.pendingNotification(from:))
    }

    func eventSummaries(customerID: String) throws -> [String: EventSummary] {
        try LedgerRecords.eventSummaries(placeholder: "?") { try connection.fetchAll($0, [customerID]) }
    }

    func eventNames(customerID: String) throws -> Set<String> {
        Set(try connection.fetchAll("SELECT DISTINCT name FROM merchandising_event WHERE customer_id = ?", [customerID])
            .map { row -> String in try row.decode(column: "name") })
    }

    func events() throws -> [MerchandisingEvent] {
        try connection.fetchAll(
            "SELECT \(LedgerRecords.eventColumns) FROM merchandising_event ORDER BY customer_id, occurred_date, rowid"
        ).map(LedgerRecords.event(from:))
    }

    // MARK: - Writes

    func lockTransaction(id: String) throws -> StoredTransaction? {
        try transaction(id: id)
    }

    func insertCustomer(id: String, appAccountToken: String?, createdDate: Int64) throws -> Bool {
        try connection.execute(
            "INSERT INTO customer (id, app_account_token, created_date) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
            [id, appAccountToken, createdDate])
        return connection.changes == 1
    }

    func setAppAccountToken(_ token: String, customerID: String) throws -> Bool {
        try connection.execute(
            "UPDATE customer SET app_account_token = ? WHERE id = ? AND app_account_token IS NULL", [token, customerID])
        return connection.changes == 1
    }

    func insertTransaction(_ transaction: StoredTransaction, storedDate: Int64, finishedDate: Int64?) throws -> Bool {
        let (state, reason, detail) = transaction.grantState.columns
        try connection.execute(
            """
            INSERT INTO store_transaction (
                transaction_id, original_transaction_id, customer_id, product_id, product_type,
                subscription_group_id, purchase_date, original_purchase_date, expires_date, quantity,
                revocation_date, revocation_reason, is_upgraded, ownership_type, offer_type, offer_id,
                app_account_token, environment, signed_date, jws, grant_state, unfinished_reason,
                unfinished_detail, stored_date, finished_date
            ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (transaction_id) DO NOTHING
            """,
            [
                transaction.id, transaction.originalID, transaction.customerID, transaction.productID,
                transaction.productType.rawValue, transaction.subscriptionGroupID,
                transaction.purchaseDate.millisecondsSince1970, transaction.originalPurchaseDate?.millisecondsSince1970,
                transaction.expirationDate?.millisecondsSince1970, transaction.purchasedQuantity,
                transaction.revocationDate?.millisecondsSince1970, transaction.revocationReason?.rawValue,
                transaction.isUpgraded, transaction.ownershipType?.rawValue, transaction.offerType?.rawValue,
                transaction.offerID, transaction.appAccountToken, transaction.environment.rawValue,
                transaction.signedDate.millisecondsSince1970, transaction.jwsRepresentation, state, reason, detail,
                storedDate, finishedDate,
            ])
        return connection.changes == 1
    }

    func insertVersion(_ version: TransactionVersion) throws -> Bool {
        try connection.execute(
            """
            INSERT INTO transaction_version (transaction_id, jws_digest, jws, signed_date, revocation_date, received_date)
            VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (transaction_id, jws_digest) DO NOTHING
            """,
            [version.transactionID, SHA256Digest.hex(of: version.jwsRepresentation), version.jwsRepresentation,
             version.signedDate.millisecondsSince1970,
             version.revocationDate?.millisecondsSince1970, version.receivedDate.millisecondsSince1970])
        return connection.changes == 1
    }

    func updateChangeableFields(of transaction: StoredTransaction) throws {
        try connection.execute(
            """
            UPDATE store_transaction SET subscription_group_id = ?, original_purchase_date = ?, expires_date = ?,
                revocation_date = ?, revocation_reason = ?, is_upgraded = ?, ownership_type = ?, offer_type = ?,
                offer_id = ?, app_account_token = ?, signed_date = ?, jws = ?
            WHERE transaction_id = ?
            """,
            [
                transaction.subscriptionGroupID, transaction.originalPurchaseDate?.millisecondsSince1970,
                transaction.expirationDate?.millisecondsSince1970, transaction.revocationDate?.millisecondsSince1970,
                transaction.revocationReason?.rawValue, transaction.isUpgraded, transaction.ownershipType?.rawValue,
                transaction.offerType?.rawValue, transaction.offerID, transaction.appAccountToken,
                transaction.signedDate.millisecondsSince1970, transaction.jwsRepresentation, transaction.id,
            ])
    }

    func setGrantState(_ state: GrantState, transactionID: String, finishedDate: Int64?, countsAttempt: Bool) throws {
        let (stateColumn, reason, detail) = state.columns
        try connection.execute(
            """
            UPDATE store_transaction SET grant_state = ?, unfinished_reason = ?, unfinished_detail = ?,
                finished_date = ?, grant_attempts = grant_attempts + ?
            WHERE transaction_id = ?
            """,
            [stateColumn, reason, detail, finishedDate, countsAttempt ? 1 : 0, transactionID])
    }

    func insertGrants(_ grants: [Grant], transactionID: String, grantedDate: Int64) throws {
        for (position, grant) in grants.enumerated() {
            try connection.execute(
                "INSERT INTO transaction_grant (transaction_id, position, item, amount, granted_date) VALUES (?, ?, ?, ?, ?)",
                [transactionID, position, grant.item, grant.amount, grantedDate])
        }
    }

    func insertReversals(positions: [Int], transactionID: String, reversedDate: Int64) throws {
        for position in positions {
            try connection.execute(
                "INSERT INTO grant_reversal (transaction_id, position, reversed_date) VALUES (?, ?, ?)",
                [transactionID, position, reversedDate])
        }
    }

    func deleteReversals(transactionID: String) throws {
        try connection.execute("DELETE FROM grant_reversal WHERE transaction_id = ?", [transactionID])
    }

    func adjustBalance(customerID: String, item: String, by amount: Int) throws {
        try connection.execute(
            """
            INSERT INTO balance (customer_id, item, amount) VALUES (?, ?, ?)
            ON CONFLICT (customer_id, item) DO UPDATE SET amount = amount + excluded.amount
            """,
            [customerID, item, amount])
    }

    func insertEvent(_ event: MerchandisingEvent) throws {
        try connection.execute(
            "INSERT INTO merchandising_event (\(LedgerRecords.eventColumns)) VALUES (?, ?, ?, ?)",
            [event.customerID, event.name, event.placement, event.occurredDate])
    }

    func upsertRenewalInfo(_ received: StoredRenewalInfo, storedDate: Int64) throws -> Bool {
        try connection.execute(
            """
            INSERT INTO renewal_info (
                original_transaction_id, product_id, auto_renew_product_id, auto_renew_status, expiration_intent,
                is_in_billing_retry_period, price_increase_status, grace_period_expires_date, offer_type, offer_id,
                environment, recent_subscription_start_date, renewal_date, app_account_token, signed_date, jws,
                stored_date
            ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (original_transaction_id) DO UPDATE SET
                product_id = excluded.product_id, auto_renew_product_id = excluded.auto_renew_product_id,
                auto_renew_status = excluded.auto_renew_status, expiration_intent = excluded.expiration_intent,
                is_in_billing_retry_period = excluded.is_in_billing_retry_period,
                price_increase_status = excluded.price_increase_status,
                grace_period_expires_date = excluded.grace_period_expires_date, offer_type = excluded.offer_type,
                offer_id = excluded.offer_id, environment = excluded.environment,
                recent_subscription_start_date = excluded.recent_subscription_start_date,
                renewal_date = excluded.renewal_date, app_account_token = excluded.app_account_token,
                signed_date = excluded.signed_date, jws = excluded.jws, stored_date = excluded.stored_date
            WHERE renewal_info.signed_date < excluded.signed_date
            """,
            [
                received.originalTransactionID, received.currentProductID, received.autoRenewPreference,
                received.autoRenewStatus?.rawValue, received.expirationReason?.rawValue, received.isInBillingRetry,
                received.priceIncreaseStatus?.rawValue, received.gracePeriodExpirationDate?.millisecondsSince1970,
                received.offerType?.rawValue, received.offerID, received.environment?.rawValue,
                received.recentSubscriptionStartDate?.millisecondsSince1970,
                received.renewalDate?.millisecondsSince1970, received.appAccountToken,
                received.signedDate.millisecondsSince1970, received.jwsRepresentation, storedDate,
            ])
        return connection.changes == 1
    }

    func insertProcessedNotification(_ notification: ProcessedNotification) throws -> Bool {
        try connection.execute(
            """
            INSERT INTO processed_notification (notification_uuid, notification_type, subtype, signed_date, processed_date)
            VALUES (?, ?, ?, ?, ?) ON CONFLICT (notification_uuid) DO NOTHING
            """,
            [notification.uuid, notification.type, notification.subtype, notification.signedDate, notification.processedDate])
        return connection.changes == 1
    }

    func insertPendingNotification(_ notification: PendingNotification) throws -> Bool {
        try connection.execute(
            """
            INSERT INTO pending_notification (notification_uuid, notification_type, subtype, signed_date, transaction_jws, transaction_id, original_transaction_id, app_account_token, received_date)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (notification_uuid) DO NOTHING
            """,
            [notification.uuid, notification.type, notification.subtype, notification.signedDate, notification.transactionJWS,
             notification.transactionID, notification.originalTransactionID, notification.appAccountToken,
             notification.receivedDate])
        return connection.changes == 1
    }

    func deletePendingNotification(uuid: String) throws {
        try connection.execute("DELETE FROM pending_notification WHERE notification_uuid = ?", [uuid])
    }

    func insertNotificationConflict(_ conflict: NotificationConflict) throws -> Bool {
        try connection.execute(
            "INSERT INTO notification_conflict (\(LedgerRecords.notificationConflictColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                + "ON CONFLICT (notification_uuid) DO NOTHING",
            [conflict.uuid, conflict.type, conflict.subtype, conflict.transactionID, conflict.field, conflict.stored,
             conflict.received, conflict.transactionJWS, conflict.receivedDate])
        return connection.changes == 1
    }
}
