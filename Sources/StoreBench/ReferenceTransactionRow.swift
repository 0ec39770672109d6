import PostgresLedger
import StoreCore
import SQLiteLedger

/// The benchmarks' reference write: one row shaped like the ledger's `store_transaction` row —
/// the same columns, holding the same transaction's fields and its JWS text — inserted with
/// nothing else around it, into a table with only its primary key.
struct ReferenceTransactionRow {
    /// The columns, as the ledger names them, in the order ``insert(into:)`` binds them.
    static let columnNames = [
        "transaction_id", "original_transaction_id", "customer_id", "product_id", "product_type",
        "subscription_group_id", "purchase_date", "original_purchase_date", "expires_date", "quantity",
        "revocation_date", "revocation_reason", "is_upgraded", "ownership_type", "offer_type", "offer_id",
        "app_account_token", "environment", "signed_date", "jws", "grant_state", "unfinished_reason",
        "unfinished_detail", "stored_date", "finished_date", "price",
    ]

    /// The columns joined for an `INSERT`.
    static let columns = columnNames.joined(separator: ", ")

    /// The reference table: these columns of the ledger's `store_transaction`, of the same kinds
    /// and nullability, with no constraint but the primary key (and SQLite's check that a flag
    /// is 0 or 1), in each database's DDL from ``LedgerTable/createStatements(in:named:)``.
    static let table = LedgerTable("reference_transaction", LedgerSchemaDescription.storeTransaction.columns
        .filter { columnNames.contains($0.name) }
        .map { LedgerColumn($0.name, $0.kind, nullable: $0.isNullable, primaryKey: $0.isPrimaryKey) })

    /// The transaction the row holds.
    let item: BenchTransactionSupply.Item
    /// When the row says it was stored and finished, in milliseconds since 1970.
    let storedDate: Int64

    /// Inserts the row through `connection`, inside the caller's transaction.
    func insert(into connection: DatabaseConnection) throws {
        let payload = item.payload
        try connection.execute(
            "INSERT INTO reference_transaction (\(Self.columns)) VALUES (\(Array(repeating: "?", count: Self.columnNames.count).joined(separator: ", ")))",
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
            "INSERT INTO reference_transaction (\(Self.columns)) VALUES (\((1...Self.columnNames.count).map { "$\($0)" }.joined(separator: ", ")))",
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
