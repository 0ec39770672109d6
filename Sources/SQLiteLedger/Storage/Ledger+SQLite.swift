import StoreCore

/// A ledger kept in one SQLite file: opened by its path, or over a database already open.
extension Ledger {
    /// The schema version this program writes on SQLite: the number of ledger migrations.
    public static var schemaVersion: Int { LedgerMigrator.ledger(.sqlite).migrations.count }

    /// Opens (creating when missing) the SQLite ledger file at `path` and brings its schema up
    /// to date.
    ///
    /// - Throws: ``SQLiteError`` when the file cannot be opened or is not a database;
    ///   ``LedgerMigrationError`` when its schema cannot be brought up to date.
    public convenience init(path: String) throws {
        self.init(storage: try SQLiteLedgerStorage(path: path))
    }

    /// Uses `database` for a SQLite ledger, bringing its schema up to date.
    ///
    /// - Throws: ``LedgerMigrationError`` when the schema cannot be brought up to date.
    public convenience init(database: Database) throws {
        self.init(storage: try SQLiteLedgerStorage(database: database))
    }

    /// The SQLite database of a ledger kept in SQLite, for inspection and for tools; nil for
    /// other storages. Write to the ledger's tables only through the ledger.
    public var sqliteDatabase: Database? {
        (storage as? SQLiteLedgerStorage)?.database
    }
}
