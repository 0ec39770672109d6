/// The index an experiment's report reads transactions through: each customer's transactions by
/// purchase time, holding every column the report's statements read of them, so that they are
/// answered from the index alone and never read a row with its stored JWS.
enum ExperimentReportIndex {
    /// The index on `store_transaction`.
    static let index = LedgerIndex(
        "store_transaction_for_experiments",
        on: "customer_id, purchase_date, original_transaction_id, price, currency, offer_type, offer_discount_type, revocation_date")

    /// Creates the index unless it exists.
    static func create(_ database: LedgerMigrationContext) throws {
        let statement = index.createStatement(on: "store_transaction")
            .replacingOccurrences(of: "CREATE INDEX ", with: "CREATE INDEX IF NOT EXISTS ")
        try database.execute(LedgerSQL(stringLiteral: statement))
    }
}
