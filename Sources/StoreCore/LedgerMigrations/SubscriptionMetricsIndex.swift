/// The index subscription metrics read transactions through: each subscription's transactions
/// in order, holding every column the metrics read, so that they are answered from the index
/// alone, in the order their windows need, and never read a row with its stored JWS.
enum SubscriptionMetricsIndex {
    /// The index on `store_transaction`.
    static let index = LedgerIndex(
        "store_transaction_for_metrics",
        on: "original_transaction_id, purchase_date, transaction_id, product_type, product_id, customer_id, expires_date, "
            + "revocation_date, is_upgraded, price, currency, offer_type, offer_discount_type, environment, ownership_type")

    /// Creates the index unless it exists.
    static func create(_ database: LedgerMigrationContext) throws {
        let statement = index.createStatement(on: "store_transaction")
            .replacingOccurrences(of: "CREATE INDEX ", with: "CREATE INDEX IF NOT EXISTS ")
        try database.execute(LedgerSQL(stringLiteral: statement))
    }
}
