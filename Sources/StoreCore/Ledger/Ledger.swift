import Foundation

/// The durable record of everything a customer bought and was granted, in one SQLite file.
///
/// The ledger stores customers; every transaction as its verbatim signed JWS plus the decoded
/// fields (``StoredTransaction``), with every version received; the renewal info of each
/// subscription (``StoredRenewalInfo``); the grants decided for each transaction; item balances
/// per customer; and the UUIDs of processed App Store Server Notifications.
///
/// ## Ingest, in order
/// ``ingest(transaction:jwsRepresentation:customerID:decide:)`` works in three steps:
/// 1. the transaction is **stored** and committed (durable) before anything is granted;
/// 2. the decision closure (in the product, the policy's `grant` hook) is asked what to grant,
///    outside any database lock;
/// 3. the grants, the balance updates and the finished state are written in **one** SQLite
///    transaction, so a transaction is finished only once its grants are durable.
///
/// Delivering the same transaction again (the purchase result and the updates stream, a
/// retry, a restart) stores it once and grants it once: grants are keyed by transaction id,
/// and step 3 grants only a transaction that is still unfinished when its write begins. When
/// the decision throws or returns an invalid ``Grant``, the transaction stays unfinished with
/// the reason recorded (``UnfinishedReason``), and ``retryUnfinished(customerID:decide:)``
/// grants it once the policy is fixed.
///
/// ## Refunds and revocations
/// A newer version of a transaction (by `signedDate`) replaces the stored fields; every
/// version stays in the history (``versions(ofTransaction:)``). When a newer version carries a
/// revocation date, each of the transaction's grants gets a **reversing entry** and the
/// balances drop by the granted amounts, so a balance is always the sum of its grants minus
/// the reversed ones — and may go below zero when the customer already used the items. A
/// transaction revoked before it was granted is finished without grants
/// (``GrantState/revokedBeforeGrant``). When a later version withdraws the revocation (a
/// reversed refund), the reversing entries are removed and the balances restored, or a
/// transaction that was never granted becomes unfinished and is granted.
///
/// ## Threads
/// `Ledger` is `Sendable`: every call may come from any thread. Writes are serialized by the
/// underlying ``Database``; the decision closure runs on the caller's thread without holding
/// the database lock, so it may read the ledger.
public final class Ledger: Sendable {
    /// The database the ledger lives in, for inspection and for tools; write to the ledger's
    /// tables only through the ledger.
    public let database: Database

    /// The schema version this program writes: the number of ledger migrations.
    public static var schemaVersion: Int { LedgerSchema.migrator.migrations.count }

    /// Opens (creating when missing) the ledger file at `path` and brings its schema up to date.
    ///
    /// - Throws: ``SQLiteError`` when the file cannot be opened or is not a database;
    ///   ``DatabaseMigrationError`` when its schema cannot be brought up to date.
    public convenience init(path: String) throws {
        try self.init(database: Database(path: path))
    }

    /// Uses `database` for the ledger, bringing its schema up to date.
    ///
    /// - Throws: ``DatabaseMigrationError`` when the schema cannot be brought up to date.
    public init(database: Database) throws {
        try LedgerSchema.migrator.migrate(database)
        self.database = database
    }

    // MARK: - Customers

    /// Records a customer, or returns the one already recorded with this id.
    ///
    /// An app account token is attached when given: to a new customer, or to a known customer
    /// who has none yet.
    ///
    /// - Throws: ``LedgerError/emptyCustomerID``; ``LedgerError/appAccountTokenInUse(token:customerID:)``
    ///   when another customer has the token; ``LedgerError/conflictingAppAccountToken(customerID:stored:received:)``
    ///   when this customer has another token.
    @discardableResult
    public func registerCustomer(id: String, appAccountToken: String? = nil) throws -> Customer {
        guard !id.isEmpty else { throw LedgerError.emptyCustomerID }
        let now = Self.nowInMilliseconds()
        return try database.write { connection in
            if let appAccountToken,
                let owner = try connection.fetchValue(
                    String.self, "SELECT id FROM customer WHERE app_account_token = ?", [appAccountToken]),
                owner != id
            {
                throw LedgerError.appAccountTokenInUse(token: appAccountToken, customerID: owner)
            }
            if let existing = try Self.customer(id: id, in: connection) {
                guard let appAccountToken, existing.appAccountToken != appAccountToken else { return existing }
                if let stored = existing.appAccountToken {
                    throw LedgerError.conflictingAppAccountToken(customerID: id, stored: stored, received: appAccountToken)
                }
                try connection.execute("UPDATE customer SET app_account_token = ? WHERE id = ?", [appAccountToken, id])
            } else {
                try connection.execute(
                    "INSERT INTO customer (id, app_account_token, created_date) VALUES (?, ?, ?)",
                    [id, appAccountToken, now])
            }
            return try Self.customer(id: id, in: connection)!
        }
    }

    /// The customer with this id, or `nil` when the ledger does not know it.
    public func customer(id: String) throws -> Customer? {
        try database.read { try Self.customer(id: id, in: $0) }
    }

    /// Every customer, in the order they were first recorded.
    public func customers() throws -> [Customer] {
        try database.read { connection in
            try connection.fetchAll("SELECT \(Self.customerColumns) FROM customer ORDER BY created_date, id")
                .map(Self.customer(from:))
        }
    }

    // MARK: - Ingest

    /// Stores a verified transaction for `customerID` and grants it once.
    ///
    /// See ``Ledger`` for the order of the steps. `decide` is called only while the transaction
    /// is unfinished and not revoked; it may be called again for the same transaction (a
    /// retry, or two threads delivering it at once), and its result is recorded at most once.
    ///
    /// - Parameters:
    ///   - payload: the decoded payload of `jwsRepresentation`, already verified.
    ///   - jwsRepresentation: the signed JWS, stored verbatim.
    ///   - customerID: the customer who owns the transaction; recorded when new.
    ///   - decide: the grants for the transaction (the policy's `grant` hook).
    /// - Returns: the stored transaction and what this call did.
    /// - Throws: ``LedgerError`` for an invalid payload, an empty customer id, or a transaction
    ///   already stored with another customer, product, kind, purchase date, quantity or
    ///   environment (nothing is stored then); ``SQLiteError`` when the database fails. An
    ///   error from `decide` is not thrown: it is recorded as the unfinished reason.
    @discardableResult
    public func ingest(
        transaction payload: JWSTransactionDecodedPayload,
        jwsRepresentation: String,
        customerID: String,
        decide: (StoredTransaction) throws -> [Grant]
    ) throws -> TransactionIngestResult {
        guard !customerID.isEmpty else { throw LedgerError.emptyCustomerID }
        let received = try Self.receivedTransaction(payload, jwsRepresentation: jwsRepresentation, customerID: customerID)
        let stored = try database.write { try Self.store(received, in: $0) }
        guard case .unfinished = stored.transaction.grantState else {
            return TransactionIngestResult(
                transaction: stored.transaction, storage: stored.storage, outcome: stored.revocation ?? .alreadyFinished)
        }
        return try attemptGrant(stored.transaction, storage: stored.storage, decide: decide)
    }

    /// Asks `decide` again for every unfinished transaction (of one customer, or of all) and
    /// records the decisions, in purchase order.
    ///
    /// A transaction whose decision fails again stays unfinished with the new reason; one that
    /// another thread finished meanwhile is reported as ``TransactionIngestResult/Outcome/alreadyFinished``.
    /// The results' storage is ``TransactionIngestResult/Storage/unchanged``.
    @discardableResult
    public func retryUnfinished(
        customerID: String? = nil,
        decide: (StoredTransaction) throws -> [Grant]
    ) throws -> [TransactionIngestResult] {
        try unfinishedTransactions(customerID: customerID).map {
            try attemptGrant($0, storage: .unchanged, decide: decide)
        }
    }

    /// Stores a verified renewal info, replacing the stored one for the same original
    /// transaction id only when this one was signed later.
    ///
    /// - Throws: ``LedgerError`` when the payload lacks `originalTransactionId` or `signedDate`.
    @discardableResult
    public func ingest(
        renewalInfo payload: JWSRenewalInfoDecodedPayload,
        jwsRepresentation: String
    ) throws -> RenewalInfoIngestResult {
        let received = try Self.receivedRenewalInfo(payload, jwsRepresentation: jwsRepresentation)
        let now = Self.nowInMilliseconds()
        return try database.write { try Self.store(received, receivedAt: now, in: $0) }
    }

    /// Processes an App Store Server Notification once: ingests the transaction and renewal
    /// info it carries, then records its UUID.
    ///
    /// A notification whose UUID was processed before returns ``NotificationIngestResult/alreadyProcessed``
    /// and changes nothing. The transaction's customer is `customerID` when given; otherwise
    /// the customer of a stored transaction with the same original transaction id, or else the
    /// customer registered with the transaction's app account token. A transaction left
    /// unfinished by `decide` still marks the notification processed: the transaction is
    /// stored, and ``retryUnfinished(customerID:decide:)`` grants it.
    ///
    /// - Parameters:
    ///   - notification: the decoded, verified notification.
    ///   - transaction: the decoded, verified `data.signedTransactionInfo`, when it has one.
    ///   - renewalInfo: the decoded, verified `data.signedRenewalInfo`, when it has one.
    ///   - customerID: the customer, when the caller knows it.
    ///   - decide: the grants for the transaction.
    /// - Throws: ``LedgerError/missingNotificationUUID``; ``LedgerError/notificationPayloadMismatch(_:)``
    ///   when a decoded payload is given without its signed data in the notification or the
    ///   reverse; ``LedgerError/unknownCustomer(transactionID:originalTransactionID:)``; and
    ///   what the transaction and renewal info ingests throw. The UUID is recorded only when
    ///   everything succeeded, so a failed notification can be delivered again.
    @discardableResult
    public func ingest(
        notification: ResponseBodyV2DecodedPayload,
        transaction: JWSTransactionDecodedPayload?,
        renewalInfo: JWSRenewalInfoDecodedPayload?,
        customerID: String? = nil,
        decide: (StoredTransaction) throws -> [Grant]
    ) throws -> NotificationIngestResult {
        guard let uuid = notification.notificationUUID, !uuid.isEmpty else {
            throw LedgerError.missingNotificationUUID
        }
        let signedTransaction = try Self.pair(
            transaction, notification.data?.signedTransactionInfo, field: "signedTransactionInfo")
        let signedRenewalInfo = try Self.pair(
            renewalInfo, notification.data?.signedRenewalInfo, field: "signedRenewalInfo")
        if try isNotificationProcessed(uuid) {
            return .alreadyProcessed
        }
        if let signedRenewalInfo {
            _ = try Self.receivedRenewalInfo(signedRenewalInfo.payload, jwsRepresentation: signedRenewalInfo.jws)
        }
        var transactionResult: TransactionIngestResult?
        if let signedTransaction {
            let owner = try customerID ?? resolveCustomer(of: signedTransaction.payload)
            transactionResult = try ingest(
                transaction: signedTransaction.payload, jwsRepresentation: signedTransaction.jws,
                customerID: owner, decide: decide)
        }
        let renewalResult = try signedRenewalInfo.map {
            try ingest(renewalInfo: $0.payload, jwsRepresentation: $0.jws)
        }
        let now = Self.nowInMilliseconds()
        let recorded = try database.write { connection in
            try connection.execute(
                """
                INSERT OR IGNORE INTO processed_notification
                    (notification_uuid, notification_type, subtype, signed_date, processed_date)
                VALUES (?, ?, ?, ?, ?)
                """,
                [uuid, notification.notificationType?.rawValue, notification.subtype?.rawValue,
                 notification.signedDate?.millisecondsSince1970, now])
            return connection.changes == 1
        }
        guard recorded else { return .alreadyProcessed }
        return .processed(transaction: transactionResult, renewalInfo: renewalResult)
    }

    // MARK: - Queries

    /// The transaction with this id, or `nil` when none is stored.
    public func transaction(id: String) throws -> StoredTransaction? {
        try database.read { try Self.transaction(id: id, in: $0) }
    }

    /// Every transaction of a customer, oldest purchase first.
    public func transactions(customerID: String) throws -> [StoredTransaction] {
        try fetchTransactions("WHERE customer_id = ? ORDER BY purchase_date, transaction_id", [customerID])
    }

    /// A customer's transactions for one product, oldest purchase first.
    public func transactions(customerID: String, productID: String) throws -> [StoredTransaction] {
        try fetchTransactions(
            "WHERE customer_id = ? AND product_id = ? ORDER BY purchase_date, transaction_id", [customerID, productID])
    }

    /// Every transaction sharing an original transaction id (a subscription's purchase and
    /// renewals), oldest purchase first.
    public func transactions(originalTransactionID: String) throws -> [StoredTransaction] {
        try fetchTransactions(
            "WHERE original_transaction_id = ? ORDER BY purchase_date, transaction_id", [originalTransactionID])
    }

    /// A customer's latest transaction for each product (StoreKit's `Transaction.latest(for:)`
    /// for every product at once), ordered by product id.
    public func latestTransactions(customerID: String) throws -> [StoredTransaction] {
        try database.read { connection in
            try connection.fetchAll(
                """
                SELECT \(Self.transactionColumns) FROM (
                    SELECT *, row_number() OVER (
                        PARTITION BY product_id ORDER BY purchase_date DESC, transaction_id DESC
                    ) AS recency
                    FROM store_transaction WHERE customer_id = ?
                ) WHERE recency = 1 ORDER BY product_id
                """,
                [customerID]
            ).map(Self.transaction(from:))
        }
    }

    /// A customer's latest transaction for one product, or `nil` when there is none.
    public func latestTransaction(customerID: String, productID: String) throws -> StoredTransaction? {
        try fetchTransactions(
            "WHERE customer_id = ? AND product_id = ? ORDER BY purchase_date DESC, transaction_id DESC LIMIT 1",
            [customerID, productID]
        ).first
    }

    /// The unfinished transactions (of one customer, or of all), oldest purchase first.
    public func unfinishedTransactions(customerID: String? = nil) throws -> [StoredTransaction] {
        try fetchTransactions(
            "WHERE grant_state = 'unfinished' AND (?1 IS NULL OR customer_id = ?1) ORDER BY purchase_date, transaction_id",
            [customerID])
    }

    /// Every signed version received for a transaction, oldest signature first.
    public func versions(ofTransaction transactionID: String) throws -> [TransactionVersion] {
        try database.read { connection in
            try connection.fetchAll(
                """
                SELECT transaction_id, jws, signed_date, revocation_date, received_date FROM transaction_version
                WHERE transaction_id = ? ORDER BY signed_date, received_date, jws
                """,
                [transactionID]
            ).map { row in
                TransactionVersion(
                    transactionID: try row.decode(column: "transaction_id"),
                    jwsRepresentation: try row.decode(column: "jws"),
                    signedDate: try Self.date(row, "signed_date"),
                    revocationDate: try Self.optionalDate(row, "revocation_date"),
                    receivedDate: try Self.date(row, "received_date"))
            }
        }
    }

    /// The grants recorded for a transaction, in the order the decision listed them (empty
    /// when it granted nothing or is not granted yet).
    public func grants(ofTransaction transactionID: String) throws -> [Grant] {
        try fetchGrants(
            "SELECT item, amount FROM transaction_grant WHERE transaction_id = ? ORDER BY position", [transactionID])
    }

    /// The grants of a transaction that are reversed because it was refunded or revoked.
    public func reversedGrants(ofTransaction transactionID: String) throws -> [Grant] {
        try fetchGrants(
            """
            SELECT g.item, g.amount FROM grant_reversal r
            JOIN transaction_grant g ON g.transaction_id = r.transaction_id AND g.position = r.position
            WHERE r.transaction_id = ? ORDER BY r.position
            """,
            [transactionID])
    }

    /// A customer's balance of every item they were ever granted: the sum of the grants minus
    /// the reversed ones (possibly zero or negative).
    public func balances(customerID: String) throws -> [String: Int] {
        try database.read { connection in
            let rows = try connection.fetchAll("SELECT item, amount FROM balance WHERE customer_id = ?", [customerID])
            return try Dictionary(uniqueKeysWithValues: rows.map {
                (try $0.decode(String.self, column: "item"), try $0.decode(Int.self, column: "amount"))
            })
        }
    }

    /// A customer's balance of one item (zero when never granted).
    public func balance(of item: String, customerID: String) throws -> Int {
        try database.read { connection in
            try connection.fetchValue(
                Int.self, "SELECT amount FROM balance WHERE customer_id = ? AND item = ?", [customerID, item]) ?? 0
        }
    }

    /// The latest renewal info stored for a subscription, or `nil` when none is.
    public func renewalInfo(originalTransactionID: String) throws -> StoredRenewalInfo? {
        try database.read { try Self.renewalInfo(originalTransactionID: originalTransactionID, in: $0) }
    }

    /// Whether the notification with this UUID was processed.
    public func isNotificationProcessed(_ notificationUUID: String) throws -> Bool {
        try database.read { connection in
            try connection.fetchOne(
                "SELECT 1 FROM processed_notification WHERE notification_uuid = ?", [notificationUUID]) != nil
        }
    }

    // MARK: - Granting

    private func attemptGrant(
        _ transaction: StoredTransaction,
        storage: TransactionIngestResult.Storage,
        decide: (StoredTransaction) throws -> [Grant]
    ) throws -> TransactionIngestResult {
        let decision: Result<[Grant], DecisionFailure>
        do {
            let grants = try decide(transaction)
            do {
                try grants.forEach { try $0.validate() }
                decision = .success(grants)
            } catch {
                decision = .failure(DecisionFailure(reason: .invalidGrant(String(describing: error))))
            }
        } catch {
            decision = .failure(DecisionFailure(reason: .decisionFailed(String(describing: error))))
        }
        let now = Self.nowInMilliseconds()
        return try database.write { connection in
            let current = try Self.requireTransaction(id: transaction.id, in: connection)
            guard case .unfinished = current.grantState else {
                return TransactionIngestResult(transaction: current, storage: storage, outcome: .alreadyFinished)
            }
            let outcome: TransactionIngestResult.Outcome
            switch decision {
            case .success(let grants):
                for (position, grant) in grants.enumerated() {
                    try connection.execute(
                        """
                        INSERT INTO transaction_grant (transaction_id, position, item, amount, granted_date)
                        VALUES (?, ?, ?, ?, ?)
                        """,
                        [current.id, position, grant.item, grant.amount, now])
                    try Self.adjustBalance(customerID: current.customerID, item: grant.item, by: grant.amount, in: connection)
                }
                try connection.execute(
                    """
                    UPDATE store_transaction SET grant_state = 'granted', unfinished_reason = NULL,
                        unfinished_detail = NULL, grant_attempts = grant_attempts + 1, finished_date = ?
                    WHERE transaction_id = ?
                    """,
                    [now, current.id])
                outcome = .granted(grants)
            case .failure(let failure):
                let (kind, detail) = Self.columns(of: failure.reason)
                try connection.execute(
                    """
                    UPDATE store_transaction SET unfinished_reason = ?, unfinished_detail = ?,
                        grant_attempts = grant_attempts + 1
                    WHERE transaction_id = ?
                    """,
                    [kind, detail, current.id])
                outcome = .unfinished(failure.reason)
            }
            return TransactionIngestResult(
                transaction: try Self.requireTransaction(id: current.id, in: connection), storage: storage, outcome: outcome)
        }
    }

    /// A decision that cannot be recorded as grants.
    private struct DecisionFailure: Error {
        let reason: UnfinishedReason
    }

    private static func adjustBalance(customerID: String, item: String, by amount: Int, in connection: DatabaseConnection) throws {
        try connection.execute(
            """
            INSERT INTO balance (customer_id, item, amount) VALUES (?, ?, ?)
            ON CONFLICT (customer_id, item) DO UPDATE SET amount = amount + excluded.amount
            """,
            [customerID, item, amount])
    }

    // MARK: - Storing transactions

    /// What storing a received transaction did.
    private struct StoreResult {
        let transaction: StoredTransaction
        let storage: TransactionIngestResult.Storage
        let revocation: TransactionIngestResult.Outcome?
    }

    private static func store(_ received: StoredTransaction, in connection: DatabaseConnection) throws -> StoreResult {
        let now = nowInMilliseconds()
        guard let existing = try transaction(id: received.id, in: connection) else {
            try connection.execute(
                "INSERT OR IGNORE INTO customer (id, created_date) VALUES (?, ?)", [received.customerID, now])
            try insert(received, storedAt: now, in: connection)
            try insertVersion(of: received, receivedAt: now, in: connection)
            return StoreResult(
                transaction: try requireTransaction(id: received.id, in: connection),
                storage: .inserted,
                revocation: received.isRevoked ? .revoked(reversed: []) : nil)
        }
        try checkUnchangeableFields(of: existing, against: received)
        guard try insertVersion(of: received, receivedAt: now, in: connection) else {
            return StoreResult(transaction: existing, storage: .unchanged, revocation: nil)
        }
        guard received.signedDate > existing.signedDate else {
            return StoreResult(transaction: existing, storage: .superseded, revocation: nil)
        }
        try updateChangeableFields(of: received, in: connection)
        var revocation: TransactionIngestResult.Outcome?
        switch (existing.isRevoked, received.isRevoked, existing.grantState) {
        case (false, true, .granted):
            revocation = .revoked(reversed: try reverseGrants(of: existing, at: now, in: connection))
        case (false, true, _):
            try connection.execute(
                """
                UPDATE store_transaction SET grant_state = 'revokedBeforeGrant', unfinished_reason = NULL,
                    unfinished_detail = NULL, finished_date = ?
                WHERE transaction_id = ?
                """,
                [now, existing.id])
            revocation = .revoked(reversed: [])
        case (true, false, .granted):
            revocation = .revocationWithdrawn(restored: try restoreGrants(of: existing, in: connection))
        case (true, false, _):
            try connection.execute(
                """
                UPDATE store_transaction SET grant_state = 'unfinished', unfinished_reason = 'awaitingGrant',
                    unfinished_detail = NULL, finished_date = NULL
                WHERE transaction_id = ?
                """,
                [existing.id])
        default:
            break
        }
        return StoreResult(
            transaction: try requireTransaction(id: existing.id, in: connection), storage: .updated, revocation: revocation)
    }

    private static func insert(_ transaction: StoredTransaction, storedAt now: Int64, in connection: DatabaseConnection) throws {
        let (state, reason, finishedDate): (String, String?, Int64?) =
            transaction.isRevoked ? ("revokedBeforeGrant", nil, now) : ("unfinished", "awaitingGrant", nil)
        try connection.execute(
            """
            INSERT INTO store_transaction (
                transaction_id, original_transaction_id, customer_id, product_id, product_type,
                subscription_group_id, purchase_date, original_purchase_date, expires_date, quantity,
                revocation_date, revocation_reason, is_upgraded, ownership_type, offer_type, offer_id,
                app_account_token, environment, signed_date, jws, grant_state, unfinished_reason,
                stored_date, finished_date
            ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                transaction.id, transaction.originalID, transaction.customerID, transaction.productID,
                transaction.productType.rawValue, transaction.subscriptionGroupID,
                transaction.purchaseDate.millisecondsSince1970, transaction.originalPurchaseDate?.millisecondsSince1970,
                transaction.expirationDate?.millisecondsSince1970, transaction.purchasedQuantity,
                transaction.revocationDate?.millisecondsSince1970, transaction.revocationReason?.rawValue,
                transaction.isUpgraded, transaction.ownershipType?.rawValue, transaction.offerType?.rawValue,
                transaction.offerID, transaction.appAccountToken, transaction.environment.rawValue,
                transaction.signedDate.millisecondsSince1970, transaction.jwsRepresentation, state, reason,
                now, finishedDate,
            ])
    }

    /// Records a version in the history; returns whether this JWS was new.
    @discardableResult
    private static func insertVersion(
        of transaction: StoredTransaction, receivedAt now: Int64, in connection: DatabaseConnection
    ) throws -> Bool {
        try connection.execute(
            """
            INSERT OR IGNORE INTO transaction_version (transaction_id, jws, signed_date, revocation_date, received_date)
            VALUES (?, ?, ?, ?, ?)
            """,
            [transaction.id, transaction.jwsRepresentation, transaction.signedDate.millisecondsSince1970,
             transaction.revocationDate?.millisecondsSince1970, now])
        return connection.changes == 1
    }

    private static func updateChangeableFields(of transaction: StoredTransaction, in connection: DatabaseConnection) throws {
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

    /// Refuses a version that changes what never changes for one transaction.
    private static func checkUnchangeableFields(of stored: StoredTransaction, against received: StoredTransaction) throws {
        let fields: [(String, String, String)] = [
            ("customer", stored.customerID, received.customerID),
            ("originalTransactionId", stored.originalID, received.originalID),
            ("productId", stored.productID, received.productID),
            ("type", stored.productType.rawValue, received.productType.rawValue),
            ("purchaseDate", "\(stored.purchaseDate.millisecondsSince1970)", "\(received.purchaseDate.millisecondsSince1970)"),
            ("quantity", "\(stored.purchasedQuantity)", "\(received.purchasedQuantity)"),
            ("environment", stored.environment.rawValue, received.environment.rawValue),
        ]
        if let (field, storedValue, receivedValue) = fields.first(where: { $0.1 != $0.2 }) {
            throw LedgerError.conflictingTransaction(
                transactionID: stored.id, field: field, stored: storedValue, received: receivedValue)
        }
    }

    private static func reverseGrants(
        of transaction: StoredTransaction, at now: Int64, in connection: DatabaseConnection
    ) throws -> [Grant] {
        let rows = try connection.fetchAll(
            """
            SELECT g.position, g.item, g.amount FROM transaction_grant g
            WHERE g.transaction_id = ? AND NOT EXISTS (
                SELECT 1 FROM grant_reversal r WHERE r.transaction_id = g.transaction_id AND r.position = g.position)
            ORDER BY g.position
            """,
            [transaction.id])
        return try rows.map { row in
            let grant = Grant(item: try row.decode(column: "item"), amount: try row.decode(column: "amount"))
            try connection.execute(
                "INSERT INTO grant_reversal (transaction_id, position, reversed_date) VALUES (?, ?, ?)",
                [transaction.id, try row.decode(Int.self, column: "position"), now])
            try adjustBalance(customerID: transaction.customerID, item: grant.item, by: -grant.amount, in: connection)
            return grant
        }
    }

    private static func restoreGrants(of transaction: StoredTransaction, in connection: DatabaseConnection) throws -> [Grant] {
        let rows = try connection.fetchAll(
            """
            SELECT g.item, g.amount FROM grant_reversal r
            JOIN transaction_grant g ON g.transaction_id = r.transaction_id AND g.position = r.position
            WHERE r.transaction_id = ? ORDER BY r.position
            """,
            [transaction.id])
        let restored = try rows.map { Grant(item: try $0.decode(column: "item"), amount: try $0.decode(column: "amount")) }
        try connection.execute("DELETE FROM grant_reversal WHERE transaction_id = ?", [transaction.id])
        for grant in restored {
            try adjustBalance(customerID: transaction.customerID, item: grant.item, by: grant.amount, in: connection)
        }
        return restored
    }

    // MARK: - Storing renewal infos

    private static func store(
        _ received: StoredRenewalInfo, receivedAt now: Int64, in connection: DatabaseConnection
    ) throws -> RenewalInfoIngestResult {
        let existing = try renewalInfo(originalTransactionID: received.originalTransactionID, in: connection)
        if let existing, existing.signedDate >= received.signedDate {
            return .kept(existing)
        }
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
            """,
            [
                received.originalTransactionID, received.currentProductID, received.autoRenewPreference,
                received.autoRenewStatus?.rawValue, received.expirationReason?.rawValue, received.isInBillingRetry,
                received.priceIncreaseStatus?.rawValue, received.gracePeriodExpirationDate?.millisecondsSince1970,
                received.offerType?.rawValue, received.offerID, received.environment?.rawValue,
                received.recentSubscriptionStartDate?.millisecondsSince1970,
                received.renewalDate?.millisecondsSince1970, received.appAccountToken,
                received.signedDate.millisecondsSince1970, received.jwsRepresentation, now,
            ])
        let stored = try renewalInfo(originalTransactionID: received.originalTransactionID, in: connection)!
        return existing == nil ? .inserted(stored) : .replaced(stored)
    }

    // MARK: - Validating payloads

    private static func receivedTransaction(
        _ payload: JWSTransactionDecodedPayload, jwsRepresentation: String, customerID: String
    ) throws -> StoredTransaction {
        let name = "transaction"
        let quantity = try required(payload.quantity, name, "quantity")
        guard quantity >= 1 else {
            throw LedgerError.invalidField(payload: name, field: "quantity", value: "\(quantity)")
        }
        return StoredTransaction(
            id: try requiredText(payload.transactionId, name, "transactionId"),
            originalID: try requiredText(payload.originalTransactionId, name, "originalTransactionId"),
            customerID: customerID,
            productID: try requiredText(payload.productId, name, "productId"),
            productType: try required(payload.type, name, "type"),
            subscriptionGroupID: payload.subscriptionGroupIdentifier,
            purchaseDate: try required(payload.purchaseDate, name, "purchaseDate"),
            originalPurchaseDate: payload.originalPurchaseDate,
            expirationDate: payload.expiresDate,
            purchasedQuantity: Int(quantity),
            revocationDate: payload.revocationDate,
            revocationReason: payload.revocationReason,
            isUpgraded: payload.isUpgraded ?? false,
            ownershipType: payload.inAppOwnershipType,
            offerType: payload.offerType,
            offerID: payload.offerIdentifier,
            appAccountToken: payload.appAccountToken,
            environment: try required(payload.environment, name, "environment"),
            signedDate: try required(payload.signedDate, name, "signedDate"),
            jwsRepresentation: try requiredText(jwsRepresentation, name, "JWS"),
            grantState: .unfinished(.awaitingGrant))
    }

    private static func receivedRenewalInfo(
        _ payload: JWSRenewalInfoDecodedPayload, jwsRepresentation: String
    ) throws -> StoredRenewalInfo {
        let name = "renewal info"
        return StoredRenewalInfo(
            originalTransactionID: try requiredText(payload.originalTransactionId, name, "originalTransactionId"),
            currentProductID: payload.productId,
            autoRenewPreference: payload.autoRenewProductId,
            autoRenewStatus: payload.autoRenewStatus,
            expirationReason: payload.expirationIntent,
            isInBillingRetry: payload.isInBillingRetryPeriod,
            priceIncreaseStatus: payload.priceIncreaseStatus,
            gracePeriodExpirationDate: payload.gracePeriodExpiresDate,
            offerType: payload.offerType,
            offerID: payload.offerIdentifier,
            environment: payload.environment,
            recentSubscriptionStartDate: payload.recentSubscriptionStartDate,
            renewalDate: payload.renewalDate,
            appAccountToken: payload.appAccountToken,
            signedDate: try required(payload.signedDate, name, "signedDate"),
            jwsRepresentation: try requiredText(jwsRepresentation, name, "JWS"))
    }

    private static func required<Value>(_ value: Value?, _ payload: String, _ field: String) throws -> Value {
        guard let value else { throw LedgerError.missingField(payload: payload, field: field) }
        return value
    }

    private static func requiredText(_ value: String?, _ payload: String, _ field: String) throws -> String {
        let text = try required(value, payload, field)
        guard !text.isEmpty else {
            throw LedgerError.invalidField(payload: payload, field: field, value: "an empty string")
        }
        return text
    }

    /// A decoded payload together with the signed JWS it came from.
    private struct Signed<Payload> {
        let payload: Payload
        let jws: String
    }

    /// Pairs a decoded payload with the JWS the notification carries for it; both or neither.
    private static func pair<Payload>(_ payload: Payload?, _ jws: String?, field: String) throws -> Signed<Payload>? {
        switch (payload, jws) {
        case (nil, nil):
            return nil
        case (let payload?, let jws?):
            return Signed(payload: payload, jws: jws)
        case (nil, _?):
            throw LedgerError.notificationPayloadMismatch("the notification carries \(field), and no decoded payload was given for it")
        case (_?, nil):
            throw LedgerError.notificationPayloadMismatch("a decoded payload was given, and the notification carries no \(field)")
        }
    }

    private func resolveCustomer(of payload: JWSTransactionDecodedPayload) throws -> String {
        let transactionID = try Self.requiredText(payload.transactionId, "transaction", "transactionId")
        let originalID = try Self.requiredText(payload.originalTransactionId, "transaction", "originalTransactionId")
        let owner = try database.read { connection -> String? in
            if let owner = try connection.fetchValue(
                String.self,
                "SELECT customer_id FROM store_transaction WHERE transaction_id = ? OR original_transaction_id = ? LIMIT 1",
                [transactionID, originalID])
            {
                return owner
            }
            guard let token = payload.appAccountToken else { return nil }
            return try connection.fetchValue(String.self, "SELECT id FROM customer WHERE app_account_token = ?", [token])
        }
        guard let owner else {
            throw LedgerError.unknownCustomer(transactionID: transactionID, originalTransactionID: originalID)
        }
        return owner
    }

    // MARK: - Reading rows

    private static let customerColumns = "id, app_account_token, created_date"

    private static let transactionColumns = """
        transaction_id, original_transaction_id, customer_id, product_id, product_type, subscription_group_id,
        purchase_date, original_purchase_date, expires_date, quantity, revocation_date, revocation_reason,
        is_upgraded, ownership_type, offer_type, offer_id, app_account_token, environment, signed_date, jws,
        grant_state, unfinished_reason, unfinished_detail
        """

    private static let renewalInfoColumns = """
        original_transaction_id, product_id, auto_renew_product_id, auto_renew_status, expiration_intent,
        is_in_billing_retry_period, price_increase_status, grace_period_expires_date, offer_type, offer_id,
        environment, recent_subscription_start_date, renewal_date, app_account_token, signed_date, jws
        """

    private func fetchTransactions(_ clause: String, _ arguments: StatementArguments) throws -> [StoredTransaction] {
        try database.read { connection in
            try connection.fetchAll("SELECT \(Self.transactionColumns) FROM store_transaction \(clause)", arguments)
                .map(Self.transaction(from:))
        }
    }

    private func fetchGrants(_ sql: String, _ arguments: StatementArguments) throws -> [Grant] {
        try database.read { connection in
            try connection.fetchAll(sql, arguments).map {
                Grant(item: try $0.decode(column: "item"), amount: try $0.decode(column: "amount"))
            }
        }
    }

    private static func customer(id: String, in connection: DatabaseConnection) throws -> Customer? {
        try connection.fetchOne("SELECT \(customerColumns) FROM customer WHERE id = ?", [id]).map(customer(from:))
    }

    private static func transaction(id: String, in connection: DatabaseConnection) throws -> StoredTransaction? {
        try connection.fetchOne(
            "SELECT \(transactionColumns) FROM store_transaction WHERE transaction_id = ?", [id]
        ).map(transaction(from:))
    }

    private static func requireTransaction(id: String, in connection: DatabaseConnection) throws -> StoredTransaction {
        guard let transaction = try transaction(id: id, in: connection) else {
            throw LedgerError.unknownTransaction(id)
        }
        return transaction
    }

    private static func renewalInfo(originalTransactionID: String, in connection: DatabaseConnection) throws -> StoredRenewalInfo? {
        try connection.fetchOne(
            "SELECT \(renewalInfoColumns) FROM renewal_info WHERE original_transaction_id = ?", [originalTransactionID]
        ).map(renewalInfo(from:))
    }

    private static func customer(from row: Row) throws -> Customer {
        Customer(
            id: try row.decode(column: "id"),
            appAccountToken: try row.decode(column: "app_account_token"),
            createdDate: try date(row, "created_date"))
    }

    private static func transaction(from row: Row) throws -> StoredTransaction {
        StoredTransaction(
            id: try row.decode(column: "transaction_id"),
            originalID: try row.decode(column: "original_transaction_id"),
            customerID: try row.decode(column: "customer_id"),
            productID: try row.decode(column: "product_id"),
            productType: TransactionProductType(rawValue: try row.decode(column: "product_type")),
            subscriptionGroupID: try row.decode(column: "subscription_group_id"),
            purchaseDate: try date(row, "purchase_date"),
            originalPurchaseDate: try optionalDate(row, "original_purchase_date"),
            expirationDate: try optionalDate(row, "expires_date"),
            purchasedQuantity: try row.decode(column: "quantity"),
            revocationDate: try optionalDate(row, "revocation_date"),
            revocationReason: try row.decode(Int?.self, column: "revocation_reason").map(RevocationReason.init(rawValue:)),
            isUpgraded: try row.decode(column: "is_upgraded"),
            ownershipType: try row.decode(String?.self, column: "ownership_type").map(InAppOwnershipType.init(rawValue:)),
            offerType: try row.decode(Int?.self, column: "offer_type").map(OfferType.init(rawValue:)),
            offerID: try row.decode(column: "offer_id"),
            appAccountToken: try row.decode(column: "app_account_token"),
            environment: AppStoreEnvironment(rawValue: try row.decode(column: "environment")),
            signedDate: try date(row, "signed_date"),
            jwsRepresentation: try row.decode(column: "jws"),
            grantState: try grantState(row))
    }

    private static func renewalInfo(from row: Row) throws -> StoredRenewalInfo {
        StoredRenewalInfo(
            originalTransactionID: try row.decode(column: "original_transaction_id"),
            currentProductID: try row.decode(column: "product_id"),
            autoRenewPreference: try row.decode(column: "auto_renew_product_id"),
            autoRenewStatus: try row.decode(Int?.self, column: "auto_renew_status").map(AutoRenewStatus.init(rawValue:)),
            expirationReason: try row.decode(Int?.self, column: "expiration_intent").map(ExpirationIntent.init(rawValue:)),
            isInBillingRetry: try row.decode(column: "is_in_billing_retry_period"),
            priceIncreaseStatus: try row.decode(Int?.self, column: "price_increase_status")
                .map(PriceIncreaseStatus.init(rawValue:)),
            gracePeriodExpirationDate: try optionalDate(row, "grace_period_expires_date"),
            offerType: try row.decode(Int?.self, column: "offer_type").map(OfferType.init(rawValue:)),
            offerID: try row.decode(column: "offer_id"),
            environment: try row.decode(String?.self, column: "environment").map(AppStoreEnvironment.init(rawValue:)),
            recentSubscriptionStartDate: try optionalDate(row, "recent_subscription_start_date"),
            renewalDate: try optionalDate(row, "renewal_date"),
            appAccountToken: try row.decode(column: "app_account_token"),
            signedDate: try date(row, "signed_date"),
            jwsRepresentation: try row.decode(column: "jws"))
    }

    private static func grantState(_ row: Row) throws -> GrantState {
        switch try row.decode(String.self, column: "grant_state") {
        case "granted":
            return .granted
        case "revokedBeforeGrant":
            return .revokedBeforeGrant
        default:
            let detail = try row.decode(String?.self, column: "unfinished_detail") ?? ""
            switch try row.decode(String.self, column: "unfinished_reason") {
            case "decisionFailed": return .unfinished(.decisionFailed(detail))
            case "invalidGrant": return .unfinished(.invalidGrant(detail))
            default: return .unfinished(.awaitingGrant)
            }
        }
    }

    private static func columns(of reason: UnfinishedReason) -> (kind: String, detail: String?) {
        switch reason {
        case .awaitingGrant: ("awaitingGrant", nil)
        case .decisionFailed(let detail): ("decisionFailed", detail)
        case .invalidGrant(let detail): ("invalidGrant", detail)
        }
    }

    private static func date(_ row: Row, _ column: String) throws -> Date {
        Date(millisecondsSince1970: try row.decode(Int64.self, column: column))
    }

    private static func optionalDate(_ row: Row, _ column: String) throws -> Date? {
        try row.decode(Int64?.self, column: column).map(Date.init(millisecondsSince1970:))
    }

    private static func nowInMilliseconds() -> Int64 {
        Date().millisecondsSince1970
    }
}
