import StoreCore

/// The ledger's PostgreSQL schema, as an ordered list of migrations that create the tables of
/// ``StoreCore/LedgerSchemaDescription`` in PostgreSQL's dialect (`bigint` for integers and
/// epoch milliseconds, `boolean` for flags), and the fleet's policy releases, which only a
/// PostgreSQL ledger keeps.
enum PostgresLedgerSchema {
    /// The migrations that build the schema; append new ones at the end.
    static let migrator: PostgresMigrator = {
        var migrator = PostgresMigrator()
        migrator.registerMigration("create ledger tables") { connection in
            try create(LedgerSchemaDescription.firstTables, on: connection)
        }
        migrator.registerMigration("create pending notification table") { connection in
            try create([LedgerSchemaDescription.pendingNotification], on: connection)
        }
        migrator.registerMigration("create merchandising event table") { connection in
            try create([LedgerSchemaDescription.merchandisingEvent], on: connection)
        }
        migrator.registerMigration("create policy release table") { connection in
            try connection.execute(createPolicyReleaseTable)
        }
        // As on SQLite: tokens compared in canonical form; a case-only duplicate among
        // customers stays as it was, for `ledger check` to report.
        migrator.registerMigration("canonicalise app account tokens") { connection in
            for table in AppAccountTokenMigration.tables {
                let tokens = try connection.execute("SELECT DISTINCT app_account_token FROM \(table) WHERE app_account_token IS NOT NULL")
                    .map { row -> String in try row.decode(column: "app_account_token") }
                for change in AppAccountTokenMigration.changes(of: tokens, unique: table == "customer") {
                    try connection.execute("UPDATE \(table) SET app_account_token = $1 WHERE app_account_token = $2",
                                           [.text(change.canonical), .text(change.stored)])
                }
            }
        }
        migrator.registerMigration("create notification conflict table") { connection in
            try create([LedgerSchemaDescription.notificationConflict], on: connection)
        }
        migrator.registerMigration("create reconciliation mark table") { connection in
            try create([LedgerSchemaDescription.reconciliationMark], on: connection)
        }
        migrator.registerMigration("create consumption request and renewal extension tables") { connection in
            try create([LedgerSchemaDescription.consumptionRequest, LedgerSchemaDescription.renewalExtension], on: connection)
        }
        // Renewal info keeps the win-back offers its customer may redeem; a database made since
        // has the column already.
        migrator.registerMigration("keep eligible win-back offers of renewal info") { connection in
            try connection.execute(
                "ALTER TABLE renewal_info ADD COLUMN IF NOT EXISTS \(LedgerSchemaDescription.eligibleWinBackOfferIDs.definition(in: .postgres))")
        }
        // As on SQLite: transactions keep what the customer paid, read from each stored JWS.
        migrator.registerMigration("keep the price of transactions") { connection in
            try connection.execute(
                "ALTER TABLE store_transaction ADD COLUMN IF NOT EXISTS \(LedgerSchemaDescription.transactionPrice.definition(in: .postgres))")
            for row in try connection.execute("SELECT transaction_id, jws FROM store_transaction WHERE price IS NULL") {
                let jws: String = try row.decode(column: "jws")
                guard let price = TransactionPriceMigration.price(ofStoredJWS: jws) else { continue }
                try connection.execute("UPDATE store_transaction SET price = $1 WHERE transaction_id = $2",
                                       [.integer(price), .text(try row.decode(column: "transaction_id"))])
            }
        }
        return migrator
    }()

    /// Creates `tables` with their indexes.
    private static func create(_ tables: [LedgerTable], on connection: PostgresConnection) throws {
        for statement in tables.flatMap({ $0.createStatements(in: .postgres) }) {
            try connection.execute(statement)
        }
    }

    private static let createPolicyReleaseTable = """
        CREATE TABLE policy_release (
            release_number bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            version text NOT NULL,
            script text NOT NULL,
            catalog_name text,
            catalog text,
            action text NOT NULL CHECK (action IN ('publish', 'rollback')),
            released_date bigint NOT NULL,
            CHECK ((catalog_name IS NULL) = (catalog IS NULL))
        )
        """
}
