/// The index subscription metrics read transactions through: each subscription's transactions
/// in order, holding every column the metrics read, so that they are answered from the index
/// alone, in the order their windows need, and never read a row with its stored JWS.
enum SubscriptionMetricsIndex {
    /// The index's columns: the order of the walk, then every column the metrics read.
    private static let columns = "original_transaction_id, purchase_date, transaction_id, product_type, product_id, customer_id, "
        + "expires_date, revocation_date, is_upgraded, price, currency, offer_type, offer_discount_type, environment, ownership_type"

    /// The index on `store_transaction`, with the storefront the metrics may be grouped by.
    static let index = LedgerIndex("store_transaction_for_metrics", on: columns + ", storefront")

    /// Creates the index's first form, without the storefront, unless it exists: what the
    /// migration that first indexed transactions for the metrics made, before transactions
    /// kept their storefront.
    static func createWithoutStorefront(_ database: LedgerMigrationContext) throws {
        try database.execute(LedgerSQL(stringLiteral: LedgerIndex(index.name, on: columns).createStatement(on: "store_transaction", ifNotExists: true)))
    }

    /// Replaces the index by its form with the storefront.
    static func recreate(_ database: LedgerMigrationContext) throws {
        try database.recreate(index, on: "store_transaction")
    }
}
