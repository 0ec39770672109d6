import PostgresLedger
import StoreCore
import SQLiteLedger

/// The benchmarks' reference write: one row shaped like the ledger's `store_transaction` row —
/// the same columns, holding the same transaction's fields and its JWS text — inserted with
/// nothing else around it, into a table with only its primary key.
struct ReferenceTransactionRow {
    /// The columns, as the ledger names them.
    static let columns = """
        transaction_id, original_transaction_id, customer_id, product_id, product_type,
        subscription_group_id, purchase_date, original_purchase_date, expires_date, quantity,
        revocation_date, revocation_reason, is_upgraded, ownership_type, offer_type, offer_id,
        app_account_token, environment, signed_date, jws, grant_state, unfinished_reason,
        unfinished_detail, stored_date, finished_date, price
        """

    /// The reference table, in SQLite.
    static let sqliteTable = """
        CREATE TABLE reference_transaction (
            transaction_id TEXT PRIMARY KEY NOT NULL, original_transaction_id TEXT NOT NULL,
            customer_id TEXT NOT NULL, product_id TEXT NOT NULL, product_type TEXT NOT NULL,
            subscription_group_id TEXT, purchase_date INTEGER NOT NULL, original_purchase_date INTEGER,
            expires_date INTEGER, quantity INTEGER NOT NULL, revocation_date INTEGER, revocation_reason INTEGER,
            is_upgraded INTEGER NOT NULL, ownership_type TEXT, offer_type INTEGER, offer_id TEXT,
            app_account_token TEXT, environment TEXT NOT NULL, signed_date INTEGER NOT NULL, jws TEXT NOT NULL,
            grant_state TEXT NOT NULL, unfinished_reason TEXT, unfinished_detail TEXT,
            stored_date INTEGER NOT NULL, finished_date INTEGER, price INTEGER
        ) STRICT
        """

    /// The reference table, in PostgreSQL.
    static let postgresTable = """
        CREATE TABLE reference_transaction (
            transaction_id TEXT PRIMARY KEY NOT NULL, original_transaction_id TEXT NOT NULL,
            customer_id TEXT NOT NULL, product_id TEXT NOT NULL, product_type TEXT NOT NULL,
            subscription_group_id TEXT, purchase_date BIGINT NOT NULL, original_purchase_date BIGINT,
            expires_date BIGINT, quantity BIGINT NOT NULL, revocation_date BIGINT, revocation_reason BIGINT,
            is_upgraded BOOLEAN NOT NULL, ownership_type TEXT, offer_type BIGINT, offer_id TEXT,
            app_account_token TEXT, environment TEXT NOT NULL, signed_date BIGINT NOT NULL, jws TEXT NOT NULL,
            grant_state TEXT NOT NULL, unfinished_reason TEXT, unfinished_detail TEXT,
            stored_date BIGINT NOT NULL, finished_date BIGINT, price BIGINT
        )
        """

    /// The transaction the row holds.
    let item: BenchTransactionSupply.Item
    /// When the row says it was stored and finished, in milliseconds since 1970.
    let storedDate: Int64

    /// Inserts the row through `connection`, inside the caller's transaction.
    func insert(into connection: DatabaseConnection) throws {
        let payload = item.payload
        try connection.execute(
            "INSERT INTO reference_transaction (\(Self.columns)) VALUES (\(Array(repeating: "?", count: 26).joined(separator: ", ")))",
            [
                payload.transactionId, payload.originalTransactionId, item.customerID, payload.productId,
                payload.type?.rawValue, payload.subscriptionGroupIdentifier, payload.purchaseDate?.millisecondsSince1970,
                payload.originalPurchaseDate?.millisecondsSince1970, payload.expiresDate?.millisecondsSince1970,
                payload.quantity.map { Int($0) }, payload.revocationDate?.millisecondsSince1970, payload.revocationReason?.rawValue,
                payload.isUpgraded ?? false, payload.inAppOwnershipType?.rawValue, payload.offerType?.rawValue,
                payload.offerIdentifier, payload.appAccountToken, payload.environment?.rawValue,
                payload.signedDate?.millisecondsSince1970, item.jws, "granted", nil, nil, storedDate, storedDate, payload.price,
            ])
    }

    /// Inserts the row through `connection` as one statement, committed on its own.
    func insert(into connection: PostgresConnection) throws {
        let payload = item.payload
        func text(_ value: String?) -> PostgresValue? { value.map(PostgresValue.text) }
        func integer(_ value: Int64?) -> PostgresValue? { value.map(PostgresValue.integer) }
        _ = try connection.execute(
            "INSERT INTO reference_transaction (\(Self.columns)) VALUES (\((1...26).map { "$\($0)" }.joined(separator: ", ")))",
            [
                text(payload.transactionId), text(payload.originalTransactionId), .text(item.customerID),
                text(payload.productId), text(payload.type?.rawValue), text(payload.subscriptionGroupIdentifier),
                integer(payload.purchaseDate?.millisecondsSince1970), integer(payload.originalPurchaseDate?.millisecondsSince1970),
                integer(payload.expiresDate?.millisecondsSince1970), integer(payload.quantity.map(Int64.init)),
                integer(payload.revocationDate?.millisecondsSince1970), integer(payload.revocationReason.map { Int64($0.rawValue) }),
                .boolean(payload.isUpgraded ?? false), text(payload.inAppOwnershipType?.rawValue),
                integer(payload.offerType.map { Int64($0.rawValue) }), text(payload.offerIdentifier),
                text(payload.appAccountToken), text(payload.environment?.rawValue),
                integer(payload.signedDate?.millisecondsSince1970), .text(item.jws), .text("granted"), nil, nil,
                .integer(storedDate), .integer(storedDate), integer(payload.price),
            ])
    }
}
