import StoreCore

/// How the ledger's migrations run on a SQLite file: each in a `BEGIN IMMEDIATE` transaction,
/// which takes SQLite's write lock up front, and counted in the file's `PRAGMA user_version`,
/// which a plain read finds before any lock is taken.
public struct SQLiteLedgerMigrationHost: LedgerMigrationHost {
    /// The database migrated.
    public let database: Database

    /// Migrates `database`.
    public init(database: Database) {
        self.database = database
    }

    /// The schema version of the file: how many ledger migrations have been applied to it.
    public func schemaVersion() throws -> Int {
        try database.read { try Self.userVersion($0) }
    }

    public func historyBeforeLocking() throws -> LedgerMigrationHistory? {
        .count(try schemaVersion())
    }

    public func withMigrationLock<T>(_ body: (DatabaseConnection) throws -> T) throws -> T {
        try database.write(body)
    }

    public func history(on connection: DatabaseConnection) throws -> LedgerMigrationHistory {
        .count(try Self.userVersion(connection))
    }

    public func record(_ migration: LedgerMigration, position: Int, on connection: DatabaseConnection) throws {
        try connection.execute("PRAGMA user_version = \(position)")
    }

    private static func userVersion(_ connection: DatabaseConnection) throws -> Int {
        try connection.fetchValue(Int.self, "PRAGMA user_version") ?? 0
    }
}
