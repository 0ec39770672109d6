import StoreCore

/// The ledger's SQLite schema, as an ordered list of migrations that create the tables of
/// ``LedgerSchemaDescription`` in SQLite's dialect, and rebuild those earlier versions of the
/// file made another way. Tables are `STRICT`, so a value of the wrong type is refused by SQLite
/// itself.
enum SQLiteLedgerSchema {
    /// The migrations that build the schema; append new ones at the end.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("create ledger tables") { connection in
            try create(LedgerSchemaDescription.firstTables, on: connection)
        }
        // Files of earlier versions hold the local store's tables here; the store now keeps them
        // in a database of its own. The step stays, creating nothing, so those files keep their
        // schema version and the next migration keeps its number.
        migrator.registerMigration("create local store tables") { _ in }
        migrator.registerMigration("create pending notification table") { connection in
            try create([LedgerSchemaDescription.pendingNotification], on: connection)
        }
        // A version was keyed by its whole JWS, which SQLite then kept twice more in the key's
        // index; it is keyed by the JWS's SHA-256 now, as on PostgreSQL.
        migrator.registerMigration("key transaction versions by their JWS digest") { connection in
            try create([LedgerSchemaDescription.transactionVersion], named: "transaction_version_by_digest", on: connection)
            for row in try connection.fetchAll("SELECT rowid, jws FROM transaction_version ORDER BY rowid") {
                let rowID: Int64 = try row.decode(column: "rowid")
                let jws: String = try row.decode(column: "jws")
                try connection.execute(
                    """
                    INSERT INTO transaction_version_by_digest
                        (transaction_id, jws_digest, jws, signed_date, revocation_date, received_date)
                    SELECT transaction_id, ?, jws, signed_date, revocation_date, received_date
                    FROM transaction_version WHERE rowid = ?
                    """,
                    [SHA256Digest.hex(of: jws), rowID])
            }
            try connection.execute(script: """
                DROP TABLE transaction_version;
                ALTER TABLE transaction_version_by_digest RENAME TO transaction_version;
                """)
        }
        migrator.registerMigration("create merchandising event table") { connection in
            try create([LedgerSchemaDescription.merchandisingEvent], on: connection)
        }
        // Tokens were stored as given; they are compared in canonical form now. A customer whose
        // token differs from another's only in case keeps it as it was, for `ledger check` to
        // report: merging two customers is an operator's decision.
        migrator.registerMigration("canonicalise app account tokens") { connection in
            for table in AppAccountTokenMigration.tables {
                let tokens = try connection.fetchAll("SELECT DISTINCT app_account_token FROM \(table) WHERE app_account_token IS NOT NULL")
                    .map { row -> String in try row.decode(column: "app_account_token") }
                for change in AppAccountTokenMigration.changes(of: tokens, unique: table == "customer") {
                    try connection.execute("UPDATE \(table) SET app_account_token = ? WHERE app_account_token = ?",
                                           [change.canonical, change.stored])
                }
            }
        }
        migrator.registerMigration("create notification conflict table") { connection in
            try create([LedgerSchemaDescription.notificationConflict], on: connection)
        }
        // Events were ordered by SQLite's hidden row id; they carry it as `event_id` now, as on
        // PostgreSQL, so one SQL orders them on both. Files made since have the column already.
        migrator.registerMigration("number merchandising events") { connection in
            let columns = try connection.fetchAll("SELECT name FROM pragma_table_info('merchandising_event')")
                .map { row -> String in try row.decode(column: "name") }
            guard !columns.contains("event_id") else { return }
            let statements = LedgerSchemaDescription.merchandisingEvent.createStatements(in: .sqlite, named: "merchandising_event_numbered")
            try connection.execute(script: statements[0])
            try connection.execute(script: """
                INSERT INTO merchandising_event_numbered (event_id, customer_id, name, placement, occurred_date)
                SELECT rowid, customer_id, name, placement, occurred_date FROM merchandising_event;
                DROP TABLE merchandising_event;
                ALTER TABLE merchandising_event_numbered RENAME TO merchandising_event;
                """)
            let indexes = LedgerSchemaDescription.merchandisingEvent.createStatements(in: .sqlite).dropFirst()
            try connection.execute(script: indexes.joined(separator: ";\n"))
        }
        migrator.registerMigration("create reconciliation mark table") { connection in
            try create([LedgerSchemaDescription.reconciliationMark], on: connection)
        }
        migrator.registerMigration("create consumption request and renewal extension tables") { connection in
            try create([LedgerSchemaDescription.consumptionRequest, LedgerSchemaDescription.renewalExtension], on: connection)
        }
        // Renewal info keeps the win-back offers its customer may redeem. Files made since have
        // the column already.
        migrator.registerMigration("keep eligible win-back offers of renewal info") { connection in
            let column = LedgerSchemaDescription.eligibleWinBackOfferIDs
            let columns = try connection.fetchAll("SELECT name FROM pragma_table_info('renewal_info')")
                .map { row -> String in try row.decode(column: "name") }
            guard !columns.contains(column.name) else { return }
            try connection.execute("ALTER TABLE renewal_info ADD COLUMN \(column.definition(in: .sqlite))")
        }
        // Transactions keep what the customer paid, read from each stored JWS, so that a
        // subscription's paid months can be told from its free ones.
        migrator.registerMigration("keep the price of transactions") { connection in
            let column = LedgerSchemaDescription.transactionPrice
            let columns = try connection.fetchAll("SELECT name FROM pragma_table_info('store_transaction')")
                .map { row -> String in try row.decode(column: "name") }
            if !columns.contains(column.name) {
                try connection.execute("ALTER TABLE store_transaction ADD COLUMN \(column.definition(in: .sqlite))")
            }
            for row in try connection.fetchAll("SELECT transaction_id, jws FROM store_transaction WHERE price IS NULL") {
                let jws: String = try row.decode(column: "jws")
                guard let price = TransactionPriceMigration.price(ofStoredJWS: jws) else { continue }
                try connection.execute("UPDATE store_transaction SET price = ? WHERE transaction_id = ?",
                                       [price, try row.decode(String.self, column: "transaction_id")])
            }
        }
        return migrator
    }()

    /// Creates `tables` (the only one under another name, while a migration rebuilds it) with
    /// their indexes.
    private static func create(_ tables: [LedgerTable], named name: String? = nil, on connection: DatabaseConnection) throws {
        let statements = tables.flatMap { $0.createStatements(in: .sqlite, named: name) }
        try connection.execute(script: statements.joined(separator: ";\n"))
    }
}
