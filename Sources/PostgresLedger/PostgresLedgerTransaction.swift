import Foundation
import StoreCore

/// One PostgreSQL transaction of the ledger: the ledger's reads and writes as parameterized
/// SQL over one connection, inside the transaction ``PostgresLedgerStorage`` began.
///
/// Under READ COMMITTED, concurrent writers never rely on a global lock: a transaction's row
/// is held with `SELECT … FOR UPDATE`, inserts that may race use `ON CONFLICT DO NOTHING` and
/// say whether they won, and balances change by one atomic `UPDATE`.
struct PostgresLedgerTransaction: LedgerWriting {
    let connection: PostgresConnection

    // MARK: - Reads

    func customer(id: String) throws -> Customer? {
        try connection.execute("SELECT \(LedgerRecords.customerColumns) FROM customer WHERE id = $1", [.text(id)])
            .first.map(LedgerRecords.customer(from:))
    }

    func customerID(appAccountToken: String) throws -> String? {
        try connection.execute("SELECT id FROM customer WHERE app_account_token = $1", [.text(appAccountToken)])
            .first.map { try $0.decode(String.self, column: "id") }
    }

    func customers() throws -> [Customer] {
        try connection.execute("SELECT \(LedgerRecords.customerColumns) FROM customer ORDER BY created_date, id COLLATE \"C\"")
            .map(LedgerRecords.customer(from:))
    }

    func transaction(id: String) throws -> StoredTransaction? {
        try connection.execute(
            "SELECT \(LedgerRecords.transactionColumns) FROM store_transaction WHERE transaction_id = $1", [.text(id)]
        ).first.map(LedgerRecords.transaction(from:))
    }

    func transactions(_ query: LedgerTransactionQuery) throws -> [StoredTransaction] {
        let (clause, parameters): (String, [PostgresValue?]) = switch query {
        case .customer(let customerID): ("customer_id = $1", [.text(customerID)])
        case .customerProduct(let customerID, let productID):
            ("customer_id = $1 AND product_id = $2", [.text(customerID), .text(productID)])
        case .original(let originalID): ("original_transaction_id = $1", [.text(originalID)])
        case .unfinished(let customerID):
            ("grant_state = 'unfinished' AND ($1::text IS NULL OR customer_id = $1)", [customerID.map(PostgresValue.text)])
        case .all: ("TRUE", [])
        }
        return try connection.execute(
            "SELECT \(LedgerRecords.transactionColumns) FROM store_transaction WHERE \(clause) ORDER BY purchase_date, transaction_id COLLATE \"C\"",
            parameters
        ).map(LedgerRecords.transaction(from:))
    }

    func transactionsWithoutSignedData(customerID: String) throws -> [StoredTransaction] {
        try connection.execute(
            """
            SELECT \(LedgerRecords.transactionColumnsWithoutSignedData) FROM store_transaction
            WHERE customer_id = $1 ORDER BY purchase_date, transaction_id COLLATE "C"
            """,
            [.text(customerID)]
        ).map(LedgerRecords.transaction(from:))
    }

    func latestTransactions(customerID: String) throws -> [StoredTransaction] {
        try connection.execute(
            """
            SELECT \(LedgerRecords.transactionColumns) FROM (
                SELECT *, row_number() OVER (
                    PARTITION BY product_id ORDER BY purchase_date DESC, transaction_id COLLATE "C" DESC
                ) AS recency
                FROM store_transaction WHERE customer_id = $1
            ) AS ranked WHERE recency = 1 ORDER BY product_id COLLATE "C"
            """,
            [.text(customerID)]
        ).map(LedgerRecords.transaction(from:))
    }

    func ownerOfTransaction(id: String, originalID: String) throws -> String? {
        try connection.execute(
            "SELECT customer_id FROM store_transaction WHERE transaction_id = $1 OR original_transaction_id = $2 LIMIT 1",
            [.text(id), .text(originalID)]
        ).first.map { try $0.decode(String.self, column: "customer_id") }
    }

    func versions(ofTransaction transactionID: String) throws -> [TransactionVersion] {
        try connection.execute(
            """
            SELECT \(LedgerRecords.versionColumns) FROM transaction_version
            WHERE transaction_id = $1 ORDER BY signed_date, received_date, jws COLLATE "C"
            """,
            [.text(transactionID)]
        ).map(LedgerRecords.version(from:))
    }

    func grants(ofTransaction transactionID: String) throws -> [Grant] {
        try connection.execute(
            "SELECT item, amount FROM transaction_grant WHERE transaction_id = $1 ORDER BY position", [.text(transactionID)]
        ).map(LedgerRecords.grant(from:))
    }

    func reversedGrants(ofTransaction transactionID: String) throws -> [Grant] {
        try connection.execute(
            """
            SELECT g.item, g.amount FROM grant_reversal r
            JOIN transaction_grant g ON g.transaction_id = r.transaction_id AND g.position = r.position
            WHERE r.transaction_id = $1 ORDER BY r.position
            """,
            [.text(transactionID)]
        ).map(LedgerRecords.grant(from:))
    }

    func unreversedGrants(ofTransaction transactionID: String) throws -> [(position: Int, grant: Grant)] {
        try connection.execute(
            """
            SELECT g.position, g.item, g.amount FROM transaction_grant g
            WHERE g.transaction_id = $1 AND NOT EXISTS (
                SELECT 1 FROM grant_reversal r WHERE r.transaction_id = g.transaction_id AND r.position = g.position)
            ORDER BY g.position
            """,
            [.text(transactionID)]
        ).map { row in (try row.decode(Int.self, column: "position"), try LedgerRecords.grant(from: row)) }
    }

    func balances(customerID: String) throws -> [String: Int] {
        let rows = try connection.execute("SELECT item, amount FROM balance WHERE customer_id = $1 AND amount <> 0", [.text(customerID)])
        return try Dictionary(uniqueKeysWithValues: rows.map {
            (try $0.decode(String.self, column: "item"), try $0.decode(Int.self, column: "amount"))
        })
    }

    func renewalInfo(originalTransactionID: String) throws -> StoredRenewalInfo? {
        try connection.execute(
            "SELECT \(LedgerRecords.renewalInfoColumns) FROM renewal_info WHERE original_transaction_id = $1",
            [.text(originalTransactionID)]
        ).first.map(LedgerRecords.renewalInfo(from:))
    }

    func isNotificationProcessed(_ notificationUUID: String) throws -> Bool {
        !(try connection.execute(
            "SELECT 1 AS present FROM processed_notification WHERE notification_uuid = $1", [.text(notificationUUID)]
        ).isEmpty)
    }

    func renewalInfos() throws -> [StoredRenewalInfo] {
        try connection.execute(
            "SELECT \(LedgerRecords.renewalInfoColumns) FROM renewal_info ORDER BY original_transaction_id COLLATE \"C\""
        ).map(LedgerRecords.renewalInfo(from:))
    }

    func processedNotifications() throws -> [ProcessedNotification] {
        try connection.execute(
            "SELECT \(LedgerRecords.processedNotificationColumns) FROM processed_notification ORDER BY notification_uuid COLLATE \"C\""
        ).map(LedgerRecords.processedNotification(from:))
    }

    func notificationConflicts() throws -> [NotificationConflict] {
        try connection.execute(
            "SELECT \(LedgerRecords.notificationConflictColumns) FROM notification_conflict ORDER BY received_date, notification_uuid COLLATE \"C\""
        ).map(LedgerRecords.notificationConflict(from:))
    }

    func pendingNotifications() throws -> [PendingNotification] {
        try connection.execute(
            "SELECT \(LedgerRecords.pendingNotificationColumns) FROM pending_notification ORDER BY received_date, notification_uuid COLLATE \"C\""
        ).map(LedgerRecords.pendingNotification(from:))
    }

    func eventSummaries(customerID: String) throws -> [String: EventSummary] {
        try LedgerRecords.eventSummaries(placeholder: "$1") { try connection.execute($0, [.text(customerID)]) }
    }

    func eventNames(customerID: String) throws -> Set<String> {
        Set(try connection.execute("SELECT DISTINCT name FROM merchandising_event WHERE customer_id = $1", [.text(customerID)])
            .map { row -> String in try row.decode(column: "name") })
    }

    func events() throws -> [MerchandisingEvent] {
        try connection.execute(
            "SELECT \(LedgerRecords.eventColumns) FROM merchandising_event ORDER BY customer_id COLLATE \"C\", occurred_date, event_id"
        ).map(LedgerRecords.event(from:))
    }

    // MARK: - Writes

    func lockTransaction(id: String) throws -> StoredTransaction? {
        try connection.execute(
            "SELECT \(LedgerRecords.transactionColumns) FROM store_transaction WHERE transaction_id = $1 FOR UPDATE",
            [.text(id)]
        ).first.map(LedgerRecords.transaction(from:))
    }

    func insertCustomer(id: String, appAccountToken: String?, createdDate: Int64) throws -> Bool {
        !(try connection.execute(
            """
            INSERT INTO customer (id, app_account_token, created_date) VALUES ($1, $2, $3)
            ON CONFLICT (id) DO NOTHING RETURNING 1 AS inserted
            """,
            [.text(id), appAccountToken.map(PostgresValue.text), .integer(createdDate)]
        ).isEmpty)
    }

    func setAppAccountToken(_ token: String, customerID: String) throws -> Bool {
        !(try connection.execute(
            "UPDATE customer SET app_account_token = $1 WHERE id = $2 AND app_account_token IS NULL RETURNING 1 AS updated",
            [.text(token), .text(customerID)]
        ).isEmpty)
    }

    func insertTransaction(_ transaction: StoredTransaction, storedDate: Int64, finishedDate: Int64?) throws -> Bool {
        let (state, reason, detail) = transaction.grantState.columns
        return !(try connection.execute(
            """
            INSERT INTO store_transaction (
                transaction_id, original_transaction_id, customer_id, product_id, product_type,
                subscription_group_id, purchase_date, original_purchase_date, expires_date, quantity,
                revocation_date, revocation_reason, is_upgraded, ownership_type, offer_type, offer_id,
                app_account_token, environment, signed_date, jws, grant_state, unfinished_reason,
                unfinished_detail, stored_date, finished_date
            ) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
                      $21, $22, $23, $24, $25)
            ON CONFLICT (transaction_id) DO NOTHING RETURNING 1 AS inserted
            """,
            [
                .text(transaction.id), .text(transaction.originalID), .text(transaction.customerID),
                .text(transaction.productID), .text(transaction.productType.rawValue),
                PostgresLedgerParameters.text(transaction.subscriptionGroupID),
                .integer(transaction.purchaseDate.millisecondsSince1970),
                PostgresLedgerParameters.milliseconds(transaction.originalPurchaseDate),
                PostgresLedgerParameters.milliseconds(transaction.expirationDate), .integer(Int64(transaction.purchasedQuantity)),
                PostgresLedgerParameters.milliseconds(transaction.revocationDate),
                PostgresLedgerParameters.integer(transaction.revocationReason?.rawValue), .boolean(transaction.isUpgraded),
                PostgresLedgerParameters.text(transaction.ownershipType?.rawValue),
                PostgresLedgerParameters.integer(transaction.offerType?.rawValue), PostgresLedgerParameters.text(transaction.offerID),
                PostgresLedgerParameters.text(transaction.appAccountToken), .text(transaction.environment.rawValue),
                .integer(transaction.signedDate.millisecondsSince1970), .text(transaction.jwsRepresentation),
                .text(state), PostgresLedgerParameters.text(reason), PostgresLedgerParameters.text(detail), .integer(storedDate),
                finishedDate.map(PostgresValue.integer),
            ]
        ).isEmpty)
    }

    func insertVersion(_ version: TransactionVersion) throws -> Bool {
        !(try connection.execute(
            """
            INSERT INTO transaction_version (transaction_id, jws_digest, jws, signed_date, revocation_date, received_date)
            VALUES ($1, encode(sha256(convert_to($2, 'UTF8')), 'hex'), $2, $3, $4, $5)
            ON CONFLICT (transaction_id, jws_digest) DO NOTHING RETURNING 1 AS inserted
            """,
            [.text(version.transactionID), .text(version.jwsRepresentation), .integer(version.signedDate.millisecondsSince1970),
             PostgresLedgerParameters.milliseconds(version.revocationDate), .integer(version.receivedDate.millisecondsSince1970)]
        ).isEmpty)
    }

    func updateChangeableFields(of transaction: StoredTransaction) throws {
        try connection.execute(
            """
            UPDATE store_transaction SET subscription_group_id = $1, original_purchase_date = $2, expires_date = $3,
                revocation_date = $4, revocation_reason = $5, is_upgraded = $6, ownership_type = $7, offer_type = $8,
                offer_id = $9, app_account_token = $10, signed_date = $11, jws = $12
            WHERE transaction_id = $13
            """,
            [
                PostgresLedgerParameters.text(transaction.subscriptionGroupID),
                PostgresLedgerParameters.milliseconds(transaction.originalPurchaseDate),
                PostgresLedgerParameters.milliseconds(transaction.expirationDate),
                PostgresLedgerParameters.milliseconds(transaction.revocationDate),
                PostgresLedgerParameters.integer(transaction.revocationReason?.rawValue), .boolean(transaction.isUpgraded),
                PostgresLedgerParameters.text(transaction.ownershipType?.rawValue),
                PostgresLedgerParameters.integer(transaction.offerType?.rawValue), PostgresLedgerParameters.text(transaction.offerID),
                PostgresLedgerParameters.text(transaction.appAccountToken), .integer(transaction.signedDate.millisecondsSince1970),
                .text(transaction.jwsRepresentation), .text(transaction.id),
            ])
    }

    func setGrantState(_ state: GrantState, transactionID: String, finishedDate: Int64?, countsAttempt: Bool) throws {
        let (stateColumn, reason, detail) = state.columns
        try connection.execute(
            """
            UPDATE store_transaction SET grant_state = $1, unfinished_reason = $2, unfinished_detail = $3,
                finished_date = $4, grant_attempts = grant_attempts + $5
            WHERE transaction_id = $6
            """,
            [.text(stateColumn), PostgresLedgerParameters.text(reason), PostgresLedgerParameters.text(detail),
             finishedDate.map(PostgresValue.integer), .integer(countsAttempt ? 1 : 0), .text(transactionID)])
    }

    func insertGrants(_ grants: [Grant], transactionID: String, grantedDate: Int64) throws {
        for (position, grant) in grants.enumerated() {
            try connection.execute(
                "INSERT INTO transaction_grant (transaction_id, position, item, amount, granted_date) VALUES ($1, $2, $3, $4, $5)",
                [.text(transactionID), .integer(Int64(position)), .text(grant.item), .integer(Int64(grant.amount)),
                 .integer(grantedDate)])
        }
    }

    func insertReversals(positions: [Int], transactionID: String, reversedDate: Int64) throws {
        for position in positions {
            try connection.execute(
                "INSERT INTO grant_reversal (transaction_id, position, reversed_date) VALUES ($1, $2, $3)",
                [.text(transactionID), .integer(Int64(position)), .integer(reversedDate)])
        }
    }

    func deleteReversals(transactionID: String) throws {
        try connection.execute("DELETE FROM grant_reversal WHERE transaction_id = $1", [.text(transactionID)])
    }

    func adjustBalance(customerID: String, item: String, by amount: Int) throws {
        try connection.execute(
            """
            INSERT INTO balance (customer_id, item, amount) VALUES ($1, $2, $3)
            ON CONFLICT (customer_id, item) DO UPDATE SET amount = balance.amount + EXCLUDED.amount
            """,
            [.text(customerID), .text(item), .integer(Int64(amount))])
    }

    func insertEvent(_ event: MerchandisingEvent) throws {
        try connection.execute(
            "INSERT INTO merchandising_event (\(LedgerRecords.eventColumns)) VALUES ($1, $2, $3, $4)",
            [.text(event.customerID), .text(event.name), event.placement.map(PostgresValue.text), .integer(event.occurredDate)])
    }

    func upsertRenewalInfo(_ received: StoredRenewalInfo, storedDate: Int64) throws -> Bool {
        !(try connection.execute(
            """
            INSERT INTO renewal_info (
                original_transaction_id, product_id, auto_renew_product_id, auto_renew_status, expiration_intent,
                is_in_billing_retry_period, price_increase_status, grace_period_expires_date, offer_type, offer_id,
                environment, recent_subscription_start_date, renewal_date, app_account_token, signed_date, jws,
                stored_date
            ) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
            ON CONFLICT (original_transaction_id) DO UPDATE SET
                product_id = EXCLUDED.product_id, auto_renew_product_id = EXCLUDED.auto_renew_product_id,
                auto_renew_status = EXCLUDED.auto_renew_status, expiration_intent = EXCLUDED.expiration_intent,
                is_in_billing_retry_period = EXCLUDED.is_in_billing_retry_period,
                price_increase_status = EXCLUDED.price_increase_status,
                grace_period_expires_date = EXCLUDED.grace_period_expires_date, offer_type = EXCLUDED.offer_type,
                offer_id = EXCLUDED.offer_id, environment = EXCLUDED.environment,
                recent_subscription_start_date = EXCLUDED.recent_subscription_start_date,
                renewal_date = EXCLUDED.renewal_date, app_account_token = EXCLUDED.app_account_token,
                signed_date = EXCLUDED.signed_date, jws = EXCLUDED.jws, stored_date = EXCLUDED.stored_date
            WHERE renewal_info.signed_date < EXCLUDED.signed_date
            RETURNING 1 AS stored
            """,
            [
                .text(received.originalTransactionID), PostgresLedgerParameters.text(received.currentProductID),
                PostgresLedgerParameters.text(received.autoRenewPreference),
                PostgresLedgerParameters.integer(received.autoRenewStatus?.rawValue),
                PostgresLedgerParameters.integer(received.expirationReason?.rawValue),
                received.isInBillingRetry.map(PostgresValue.boolean),
                PostgresLedgerParameters.integer(received.priceIncreaseStatus?.rawValue),
                PostgresLedgerParameters.milliseconds(received.gracePeriodExpirationDate),
                PostgresLedgerParameters.integer(received.offerType?.rawValue), PostgresLedgerParameters.text(received.offerID),
                PostgresLedgerParameters.text(received.environment?.rawValue),
                PostgresLedgerParameters.milliseconds(received.recentSubscriptionStartDate),
                PostgresLedgerParameters.milliseconds(received.renewalDate), PostgresLedgerParameters.text(received.appAccountToken),
                .integer(received.signedDate.millisecondsSince1970), .text(received.jwsRepresentation), .integer(storedDate),
            ]
        ).isEmpty)
    }

    func insertProcessedNotification(_ notification: ProcessedNotification) throws -> Bool {
        !(try connection.execute(
            """
            INSERT INTO processed_notification (notification_uuid, notification_type, subtype, signed_date, processed_date)
            VALUES ($1, $2, $3, $4, $5) ON CONFLICT (notification_uuid) DO NOTHING RETURNING 1 AS inserted
            """,
            [.text(notification.uuid), PostgresLedgerParameters.text(notification.type), PostgresLedgerParameters.text(notification.subtype),
             notification.signedDate.map(PostgresValue.integer), .integer(notification.processedDate)]
        ).isEmpty)
    }

    func insertPendingNotification(_ notification: PendingNotification) throws -> Bool {
        !(try connection.execute(
            """
            INSERT INTO pending_notification (notification_uuid, notification_type, subtype, signed_date, transaction_jws, transaction_id, original_transaction_id, app_account_token, received_date)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (notification_uuid) DO NOTHING RETURNING 1 AS inserted
            """,
            [.text(notification.uuid), PostgresLedgerParameters.text(notification.type), PostgresLedgerParameters.text(notification.subtype),
             notification.signedDate.map(PostgresValue.integer), .text(notification.transactionJWS),
             .text(notification.transactionID), .text(notification.originalTransactionID),
             PostgresLedgerParameters.text(notification.appAccountToken), .integer(notification.receivedDate)]
        ).isEmpty)
    }

    func deletePendingNotification(uuid: String) throws {
        try connection.execute("DELETE FROM pending_notification WHERE notification_uuid = $1", [.text(uuid)])
    }

    func insertNotificationConflict(_ conflict: NotificationConflict) throws -> Bool {
        !(try connection.execute(
            "INSERT INTO notification_conflict (\(LedgerRecords.notificationConflictColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
                + "ON CONFLICT (notification_uuid) DO NOTHING RETURNING 1 AS inserted",
            [.text(conflict.uuid), PostgresLedgerParameters.text(conflict.type), PostgresLedgerParameters.text(conflict.subtype),
             .text(conflict.transactionID), .text(conflict.field), .text(conflict.stored), .text(conflict.received),
             .text(conflict.transactionJWS), .integer(conflict.receivedDate)]
        ).isEmpty)
    }
}
