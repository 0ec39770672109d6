import SignedData

/// The ledger's schema history: one ordered list of steps for both databases, each written
/// once as ``LedgerSQL`` over the tables of ``LedgerSchemaDescription``, its dialect writing
/// what differs. A step that only one database's history holds says so; the others keep their
/// place, so every database's recorded migrations keep their meaning (SQLite counts them in
/// `PRAGMA user_version`, PostgreSQL names them in `storerules_migrations`).
///
/// Append new steps at the end; never edit or reorder a shipped one.
public enum LedgerMigrations {
    /// Every step, in the order they apply.
    public static let all: [LedgerMigration] = [
        LedgerMigration("create ledger tables") { try $0.create(LedgerSchemaDescription.firstTables) },
        // SQLite files of earlier versions hold the local store's tables here; the store now
        // keeps them in a database of its own. The step stays, creating nothing, so those files
        // keep their schema version and the next migration keeps its number.
        LedgerMigration("create local store tables", on: [.sqlite]) { _ in },
        LedgerMigration("create pending notification table") { try $0.create([LedgerSchemaDescription.pendingNotification]) },
        // A version was keyed by its whole JWS, which SQLite then kept twice more in the key's
        // index; it is keyed by the JWS's SHA-256 now, as PostgreSQL's always were.
        LedgerMigration("key transaction versions by their JWS digest", on: [.sqlite], apply: keyVersionsByDigest),
        LedgerMigration("create merchandising event table") { try $0.create([LedgerSchemaDescription.merchandisingEvent]) },
        LedgerMigration("create policy release table", on: [.postgres]) { try $0.create([LedgerSchemaDescription.policyRelease]) },
        // Tokens were stored as given; they are compared in canonical form now. A customer whose
        // token differs from another's only in case keeps it as it was, for `ledger check` to
        // report: merging two customers is an operator's decision.
        LedgerMigration("canonicalise app account tokens", apply: canonicaliseAppAccountTokens),
        LedgerMigration("create notification conflict table") { try $0.create([LedgerSchemaDescription.notificationConflict]) },
        // Events were ordered by SQLite's hidden row id; they carry it as `event_id` now, as on
        // PostgreSQL, so one SQL orders them on both. Files made since have the column already.
        LedgerMigration("number merchandising events", on: [.sqlite], apply: numberMerchandisingEvents),
        LedgerMigration("create reconciliation mark table") { try $0.create([LedgerSchemaDescription.reconciliationMark]) },
        LedgerMigration("create consumption request and renewal extension tables") {
            try $0.create([LedgerSchemaDescription.consumptionRequest, LedgerSchemaDescription.renewalExtension])
        },
        // Renewal info keeps the win-back offers its customer may redeem.
        LedgerMigration("keep eligible win-back offers of renewal info") {
            try $0.addColumnIfMissing(LedgerSchemaDescription.eligibleWinBackOfferIDs, to: "renewal_info")
        },
        // Transactions keep what the customer paid, read from each stored JWS, so that a
        // subscription's paid months can be told from its free ones.
        LedgerMigration("keep the price of transactions", apply: keepTransactionPrices),
        LedgerMigration("create experiment tables") {
            try $0.create([LedgerSchemaDescription.experimentExposure, LedgerSchemaDescription.experimentPhase])
        },
        // Transactions keep the currency of their price and the kind of discount of their
        // offer, read from each stored JWS, so that revenue is summed per currency and a free
        // trial is told from a paid offer.
        LedgerMigration("keep the currency and offer discount type of transactions", apply: keepTransactionCurrencies),
        // An experiment's report reads each customer's transactions by purchase time from an
        // index that holds every column it needs.
        LedgerMigration("index transactions for experiment reports", apply: ExperimentReportIndex.createFirstForm),
        LedgerMigration("index transactions for subscription metrics", apply: SubscriptionMetricsIndex.createWithoutStorefront),
        // Transactions keep the storefront they were bought in, read from each stored JWS, so
        // that the metrics can be counted per storefront from the index.
        LedgerMigration("keep the storefront of transactions", apply: keepTransactionStorefronts),
        LedgerMigration("index transactions for subscription metrics by storefront", apply: SubscriptionMetricsIndex.recreate),
        LedgerMigration("create outgoing event tables") {
            try $0.create([LedgerSchemaDescription.outgoingEvent, LedgerSchemaDescription.outgoingEventState])
        },
        // A report reads each customer's transactions by subscription and currency, and a
        // phase's exposures by customer, so that SQLite counts each group as it reads it.
        LedgerMigration("index transactions and exposures for experiment reports by customer", apply: ExperimentReportIndex.recreate),
        // Delivery takes pending events by when they are due and then when they were written,
        // from an index in that order, instead of sorting every pending event for each batch.
        LedgerMigration("index pending outgoing events by due time and creation") { database in
            try database.recreate(LedgerSchemaDescription.outgoingEventDue, on: LedgerSchemaDescription.outgoingEvent.name)
        },
    ]

    private static func keyVersionsByDigest(_ database: LedgerMigrationContext) throws {
        try database.create([LedgerSchemaDescription.transactionVersion], named: "transaction_version_by_digest")
        for row in try database.rows("SELECT rowid, jws FROM transaction_version ORDER BY rowid") {
            let rowID = try row.integer("rowid")
            try database.execute(
                """
                INSERT INTO transaction_version_by_digest
                    (transaction_id, jws_digest, jws, signed_date, revocation_date, received_date)
                SELECT transaction_id, \(SHA256Digest.hex(of: try row.text("jws"))), jws, signed_date, revocation_date, received_date
                FROM transaction_version WHERE rowid = \(rowID)
                """)
        }
        try database.execute("DROP TABLE transaction_version")
        try database.execute("ALTER TABLE transaction_version_by_digest RENAME TO transaction_version")
    }

    private static func canonicaliseAppAccountTokens(_ database: LedgerMigrationContext) throws {
        for table in AppAccountTokenMigration.tables {
            let tokens = try database.rows("SELECT DISTINCT app_account_token FROM \(sql: table) WHERE app_account_token IS NOT NULL")
                .map { try $0.text("app_account_token") }
            for change in AppAccountTokenMigration.changes(of: tokens, unique: table == "customer") {
                try database.execute("UPDATE \(sql: table) SET app_account_token = \(change.canonical) WHERE app_account_token = \(change.stored)")
            }
        }
    }

    private static func numberMerchandisingEvents(_ database: LedgerMigrationContext) throws {
        guard try !database.columnNames(of: "merchandising_event").contains("event_id") else { return }
        let table = LedgerSchemaDescription.merchandisingEvent
        try database.execute(LedgerSQL(stringLiteral: table.createStatements(in: database.dialect, named: "merchandising_event_numbered")[0]))
        try database.execute("""
            INSERT INTO merchandising_event_numbered (event_id, customer_id, name, placement, occurred_date)
            SELECT rowid, customer_id, name, placement, occurred_date FROM merchandising_event
            """)
        try database.execute("DROP TABLE merchandising_event")
        try database.execute("ALTER TABLE merchandising_event_numbered RENAME TO merchandising_event")
        for index in table.createStatements(in: database.dialect).dropFirst() {
            try database.execute(LedgerSQL(stringLiteral: index))
        }
    }

    private static func keepTransactionPrices(_ database: LedgerMigrationContext) throws {
        try database.addColumnIfMissing(LedgerSchemaDescription.transactionPrice, to: "store_transaction")
        for row in try database.rows("SELECT transaction_id, jws FROM store_transaction WHERE price IS NULL") {
            guard let price = TransactionPriceMigration.price(ofStoredJWS: try row.text("jws")) else { continue }
            try database.execute("UPDATE store_transaction SET price = \(price) WHERE transaction_id = \(try row.text("transaction_id"))")
        }
    }

    private static func keepTransactionCurrencies(_ database: LedgerMigrationContext) throws {
        try database.addColumnIfMissing(LedgerSchemaDescription.transactionCurrency, to: "store_transaction")
        try database.addColumnIfMissing(LedgerSchemaDescription.transactionOfferDiscountType, to: "store_transaction")
        let unfilled: LedgerSQL = "SELECT transaction_id, jws FROM store_transaction WHERE currency IS NULL AND offer_discount_type IS NULL"
        for row in try database.rows(unfilled) {
            let fields = TransactionCurrencyMigration.fields(ofStoredJWS: try row.text("jws"))
            guard fields.currency != nil || fields.offerDiscountType != nil else { continue }
            try database.execute("""
                UPDATE store_transaction SET currency = \(fields.currency), offer_discount_type = \(fields.offerDiscountType)
                WHERE transaction_id = \(try row.text("transaction_id"))
                """)
        }
    }

    private static func keepTransactionStorefronts(_ database: LedgerMigrationContext) throws {
        try database.addColumnIfMissing(LedgerSchemaDescription.transactionStorefront, to: "store_transaction")
        for row in try database.rows("SELECT transaction_id, jws FROM store_transaction WHERE storefront IS NULL") {
            guard let storefront = TransactionCurrencyMigration.storefront(ofStoredJWS: try row.text("jws")) else { continue }
            try database.execute(
                "UPDATE store_transaction SET storefront = \(storefront) WHERE transaction_id = \(try row.text("transaction_id"))")
        }
    }
}
