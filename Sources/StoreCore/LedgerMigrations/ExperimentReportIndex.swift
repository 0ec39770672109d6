/// The indexes an experiment's report reads through, so that the database reads a phase's
/// exposures one customer after another and, for each, their transactions subscription by
/// subscription and currency by currency: each group the report's statements form (a customer's
/// subscription, a customer's currency) then arrives whole, in order, and SQLite counts it as it
/// goes rather than sorting every transaction first.
enum ExperimentReportIndex {
    /// On `store_transaction`: each customer's transactions by subscription, currency and
    /// purchase time, holding every column the report's statements read of them, so that they
    /// are answered from the index alone and never read a row with its stored JWS.
    static let transactions = LedgerIndex(
        "store_transaction_for_experiments",
        on: "customer_id, original_transaction_id, currency, purchase_date, price, offer_type, offer_discount_type, revocation_date")

    /// On `experiment_exposure`: a phase's exposures by customer, one each, which tells the
    /// database that each customer's transactions are read once and in order.
    static let exposures = LedgerIndex("experiment_exposure_by_phase", on: "experiment, phase, customer_id", unique: true)

    /// Creates the transactions' index in its first form, by purchase time, unless it exists:
    /// what the migration that first indexed transactions for reports made.
    static func createFirstForm(_ database: LedgerMigrationContext) throws {
        let firstForm = LedgerIndex(
            transactions.name,
            on: "customer_id, purchase_date, original_transaction_id, price, currency, offer_type, offer_discount_type, revocation_date")
        try database.execute(LedgerSQL(stringLiteral: firstForm.createStatement(on: "store_transaction", ifNotExists: true)))
    }

    /// Replaces the transactions' index by its form by subscription and currency, and the
    /// exposures' index by variant by the one by customer (which a ledger made since has
    /// already).
    static func recreate(_ database: LedgerMigrationContext) throws {
        try database.recreate(transactions, on: "store_transaction")
        try database.execute("DROP INDEX IF EXISTS experiment_exposure_by_variant")
        try database.execute(LedgerSQL(stringLiteral: exposures.createStatement(on: "experiment_exposure", ifNotExists: true)))
    }
}
