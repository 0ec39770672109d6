/// One transaction of the ledger on either database: its reads and writes written once as
/// ``LedgerSQL`` over a ``LedgerSQLConnection``, inside the transaction the storage began.
///
/// What the databases do differently, the dialect writes: on PostgreSQL, under READ
/// COMMITTED, ``lockTransaction(id:)`` holds the row with `FOR UPDATE`; on SQLite, under
/// `BEGIN IMMEDIATE`, one writer runs at a time and the same read needs no lock. Inserts that
/// may race use `ON CONFLICT DO NOTHING RETURNING` and say whether they won; balances change
/// by one atomic upsert.
public struct SQLLedgerTransaction<Connection: LedgerSQLConnection>: LedgerWriting {
    /// The connection the statements run on.
    public let connection: Connection

    /// The ledger's reads and writes over `connection`.
    public init(connection: Connection) {
        self.connection = connection
    }

    // MARK: - Reads

    public func customer(id: String) throws -> Customer? {
        try connection.firstRow("SELECT \(sql: LedgerRecords.customerColumns) FROM customer WHERE id = \(id)")
            .map(LedgerRecords.customer(from:))
    }

    public func customerID(appAccountToken: String) throws -> String? {
        try connection.firstRow("SELECT id FROM customer WHERE app_account_token = \(appAccountToken)")
            .map { try $0.text("id") }
    }

    public func customers() throws -> [Customer] {
        try connection.rows("SELECT \(sql: LedgerRecords.customerColumns) FROM customer ORDER BY created_date, id\(.binaryCollation)")
            .map(LedgerRecords.customer(from:))
    }

    public func transaction(id: String) throws -> StoredTransaction? {
        try connection.firstRow(
            "SELECT \(sql: LedgerRecords.transactionColumns) FROM store_transaction WHERE transaction_id = \(id)"
        ).map(LedgerRecords.transaction(from:))
    }

    public func claimRefusal(_ claim: TransactionClaim) throws -> TransactionClaimRefusal? {
        try claimedTransaction(claim, withStored: false).refusal
    }

    public func claimedTransaction(_ claim: TransactionClaim) throws -> ClaimedTransaction {
        try claimedTransaction(claim, withStored: true)
    }

    /// The claim's refusal, and the transaction stored with its id when `withStored`, in one
    /// statement: the other owners found by subqueries, the stored row joined beside them.
    private func claimedTransaction(_ claim: TransactionClaim, withStored: Bool) throws -> ClaimedTransaction {
        let owners: LedgerSQL = """
            SELECT
                (SELECT id FROM customer WHERE app_account_token = \(claim.appAccountToken) AND id <> \(claim.customerID)) AS token_owner,
                (SELECT customer_id FROM store_transaction
                 WHERE (transaction_id = \(claim.transactionID) OR original_transaction_id = \(claim.originalID))
                   AND customer_id <> \(claim.customerID)
                 LIMIT 1) AS transaction_owner
            """
        let statement: LedgerSQL = withStored
            ? """
                SELECT owners.token_owner, owners.transaction_owner, \(sql: LedgerRecords.qualifiedTransactionColumns)
                FROM (\(sql: owners)) AS owners LEFT JOIN store_transaction ON store_transaction.transaction_id = \(claim.transactionID)
                """
            : owners
        guard let row = try connection.firstRow(statement) else { return ClaimedTransaction(stored: nil, refusal: nil) }
        let refusal: TransactionClaimRefusal? = if try row.optionalText("token_owner") != nil {
            .tokenOfAnotherCustomer
        } else if try row.optionalText("transaction_owner") != nil {
            .storedForAnotherCustomer
        } else {
            nil
        }
        let stored = try withStored && row.optionalText("transaction_id") != nil ? LedgerRecords.transaction(from: row) : nil
        return ClaimedTransaction(stored: stored, refusal: refusal)
    }

    public func transactions(_ query: LedgerTransactionQuery) throws -> [StoredTransaction] {
        let condition: LedgerSQL = switch query {
        case .customer(let customerID): "customer_id = \(customerID)"
        case .customerProduct(let customerID, let productID): "customer_id = \(customerID) AND product_id = \(productID)"
        case .original(let originalID): "original_transaction_id = \(originalID)"
        case .unfinished(nil): "grant_state = 'unfinished'"
        case .unfinished(let customerID?): "grant_state = 'unfinished' AND customer_id = \(customerID)"
        case .all: "1 = 1"
        }
        return try connection.rows(
            """
            SELECT \(sql: LedgerRecords.transactionColumns) FROM store_transaction WHERE \(sql: condition)
            ORDER BY purchase_date, transaction_id\(.binaryCollation)
            """
        ).map(LedgerRecords.transaction(from:))
    }

    public func transactionsWithoutSignedData(customerID: String) throws -> [StoredTransaction] {
        try connection.rows(CustomerSnapshotStatement.allTransactions(customerID: customerID)).map(LedgerRecords.transaction(from:))
    }

    public func latestTransactions(customerID: String) throws -> [StoredTransaction] {
        try connection.rows(
            """
            SELECT \(sql: LedgerRecords.transactionColumns) FROM (
                SELECT *, row_number() OVER (
                    PARTITION BY product_id ORDER BY purchase_date DESC, transaction_id\(.binaryCollation) DESC
                ) AS recency
                FROM store_transaction WHERE customer_id = \(customerID)
            ) AS ranked WHERE recency = 1 ORDER BY product_id\(.binaryCollation)
            """
        ).map(LedgerRecords.transaction(from:))
    }

    public func ownerOfTransaction(id: String, originalID: String) throws -> String? {
        try connection.firstRow(
            "SELECT customer_id FROM store_transaction WHERE transaction_id = \(id) OR original_transaction_id = \(originalID) LIMIT 1"
        ).map { try $0.text("customer_id") }
    }

    public func versions(ofTransaction transactionID: String) throws -> [TransactionVersion] {
        try connection.rows(
            """
            SELECT \(sql: LedgerRecords.versionColumns) FROM transaction_version
            WHERE transaction_id = \(transactionID) ORDER BY signed_date, received_date, jws\(.binaryCollation)
            """
        ).map(LedgerRecords.version(from:))
    }

    public func grants(ofTransaction transactionID: String) throws -> [Grant] {
        try connection.rows("SELECT item, amount FROM transaction_grant WHERE transaction_id = \(transactionID) ORDER BY position")
            .map(LedgerRecords.grant(from:))
    }

    public func reversedGrants(ofTransaction transactionID: String) throws -> [Grant] {
        try connection.rows(
            """
            SELECT g.item, g.amount FROM grant_reversal r
            JOIN transaction_grant g ON g.transaction_id = r.transaction_id AND g.position = r.position
            WHERE r.transaction_id = \(transactionID) ORDER BY r.position
            """
        ).map(LedgerRecords.grant(from:))
    }

    public func grantedDate(ofTransaction transactionID: String) throws -> Int64? {
        try connection.firstRow(
            "SELECT finished_date FROM store_transaction WHERE transaction_id = \(transactionID) AND grant_state = 'granted'"
        ).flatMap { try $0.optionalInteger("finished_date") }
    }

    public func unreversedGrants(ofTransaction transactionID: String) throws -> [(position: Int, grant: Grant)] {
        try connection.rows(
            """
            SELECT g.position, g.item, g.amount FROM transaction_grant g
            WHERE g.transaction_id = \(transactionID) AND NOT EXISTS (
                SELECT 1 FROM grant_reversal r WHERE r.transaction_id = g.transaction_id AND r.position = g.position)
            ORDER BY g.position
            """
        ).map { row in (Int(try row.integer("position")), try LedgerRecords.grant(from: row)) }
    }

    public func balances(customerID: String) throws -> [String: Int] {
        let rows = try connection.rows("SELECT item, amount FROM balance WHERE customer_id = \(customerID) AND amount <> 0")
        return try Dictionary(uniqueKeysWithValues: rows.map { (try $0.text("item"), Int(try $0.integer("amount"))) })
    }

    public func renewalInfo(originalTransactionID: String) throws -> StoredRenewalInfo? {
        try connection.firstRow(
            "SELECT \(sql: LedgerRecords.renewalInfoColumns) FROM renewal_info WHERE original_transaction_id = \(originalTransactionID)"
        ).map(LedgerRecords.renewalInfo(from:))
    }

    public func isNotificationProcessed(_ notificationUUID: String) throws -> Bool {
        try connection.returnsRow("SELECT 1 AS present FROM processed_notification WHERE notification_uuid = \(notificationUUID)")
    }

    public func renewalInfos() throws -> [StoredRenewalInfo] {
        try connection.rows(
            "SELECT \(sql: LedgerRecords.renewalInfoColumns) FROM renewal_info ORDER BY original_transaction_id\(.binaryCollation)"
        ).map(LedgerRecords.renewalInfo(from:))
    }

    public func processedNotifications() throws -> [ProcessedNotification] {
        try connection.rows(
            """
            SELECT \(sql: LedgerRecords.processedNotificationColumns) FROM processed_notification
            ORDER BY notification_uuid\(.binaryCollation)
            """
        ).map(LedgerRecords.processedNotification(from:))
    }

    public func reconciliationMark(kind: ReconciliationMark.Kind, key: String) throws -> ReconciliationMark? {
        try connection.rows(
            """
            SELECT kind, mark_key, value, updated_date FROM reconciliation_mark WHERE kind = \(kind.rawValue) AND mark_key = \(key)
            """
        ).first.map(LedgerRecords.reconciliationMark(from:))
    }

    public func reconciliationMarks() throws -> [ReconciliationMark] {
        try connection.rows(
            """
            SELECT kind, mark_key, value, updated_date FROM reconciliation_mark
            ORDER BY kind\(.binaryCollation), mark_key\(.binaryCollation)
            """
        ).map(LedgerRecords.reconciliationMark(from:))
    }

    public func consumptionRequests() throws -> [ConsumptionRequestRecord] {
        try connection.rows(
            """
            SELECT \(sql: LedgerRecords.consumptionRequestColumns) FROM consumption_request
            ORDER BY received_date, notification_uuid\(.binaryCollation)
            """
        ).map(LedgerRecords.consumptionRequest(from:))
    }

    public func dueConsumptionRequests(at now: Int64) throws -> [ConsumptionRequestRecord] {
        try connection.rows(
            """
            SELECT \(sql: LedgerRecords.consumptionRequestColumns) FROM consumption_request
            WHERE state = 'pending' AND next_attempt_date <= \(now)
            ORDER BY received_date, notification_uuid\(.binaryCollation)
            """
        ).map(LedgerRecords.consumptionRequest(from:))
    }

    public func renewalExtensions() throws -> [RenewalExtensionRecord] {
        try connection.rows(
            """
            SELECT \(sql: LedgerRecords.renewalExtensionColumns) FROM renewal_extension
            ORDER BY incident_digest\(.binaryCollation), product_id\(.binaryCollation), original_transaction_id\(.binaryCollation),
                     request_identifier\(.binaryCollation)
            """
        ).map(LedgerRecords.renewalExtension(from:))
    }

    public func notificationConflicts() throws -> [NotificationConflict] {
        try connection.rows(
            """
            SELECT \(sql: LedgerRecords.notificationConflictColumns) FROM notification_conflict
            ORDER BY received_date, notification_uuid\(.binaryCollation)
            """
        ).map(LedgerRecords.notificationConflict(from:))
    }

    public func pendingNotifications() throws -> [PendingNotification] {
        try connection.rows(
            """
            SELECT \(sql: LedgerRecords.pendingNotificationColumns) FROM pending_notification
            ORDER BY received_date, notification_uuid\(.binaryCollation)
            """
        ).map(LedgerRecords.pendingNotification(from:))
    }

    public func eventSummaries(customerID: String) throws -> [String: EventSummary] {
        let counts = try connection.rows(LedgerRecords.eventCountsQuery(customerID: customerID))
        guard !counts.isEmpty else { return [:] }
        let fitsTheLimit = try counts.allSatisfy { try $0.integer("event_count") <= Int64(EventSummary.recentLimit) }
        let recent = try connection.rows(
            fitsTheLimit ? LedgerRecords.allEventsQuery(customerID: customerID) : LedgerRecords.recentEventsQuery(customerID: customerID))
        return try LedgerRecords.eventSummaries(counts: counts, recent: recent)
    }

    public func eventNames(customerID: String) throws -> Set<String> {
        Set(try connection.rows("SELECT DISTINCT name FROM merchandising_event WHERE customer_id = \(customerID)")
            .map { try $0.text("name") })
    }

    public func events() throws -> [MerchandisingEvent] {
        try connection.rows(
            """
            SELECT \(sql: LedgerRecords.eventColumns) FROM merchandising_event
            ORDER BY customer_id\(.binaryCollation), occurred_date, event_id
            """
        ).map(LedgerRecords.event(from:))
    }
}
