import StoreCore

/// How the ledger's migrations run on PostgreSQL: each in a READ COMMITTED transaction that
/// first takes a transaction-scoped advisory lock (`pg_advisory_xact_lock`), so the statements
/// after it see what the lock's previous holder committed, and recorded by name in the
/// `storerules_migrations` table.
public struct PostgresLedgerMigrationHost: LedgerMigrationHost {
    /// The advisory lock key every migrating transaction takes: the bytes of "StoreRul".
    public static let lockKey: Int64 = 0x5374_6F72_6552_756C

    /// The connection migrations run on.
    public let connection: PostgresConnection

    /// Migrates the database of `connection`.
    public init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Applies `migrator`'s migrations (the ledger's by default) that the database lacks, its
    /// statements bounded by ``PostgresTimeouts/migration`` rather than
    /// ``PostgresTimeouts/statement``. Safe to run from several processes or connections at
    /// once; each migration is applied by exactly one of them.
    ///
    /// - Throws: ``StoreCore/LedgerMigrationError``, or ``PostgresError`` when the server fails.
    public func migrate(with migrator: LedgerMigrator = .ledger(.postgres)) throws {
        try connection.withStatementTimeout(connection.timeouts.migration) {
            try migrator.migrate(self)
        }
    }

    /// The names of the migrations applied to the database, in order; empty when none ever was.
    public func appliedMigrations() throws -> [String] {
        let table = try connection.execute("SELECT to_regclass('storerules_migrations') IS NOT NULL AS present")
        guard try table.first?.decode(Bool.self, column: "present") == true else { return [] }
        return try Self.recordedNames(connection)
    }

    /// Nil: every run takes the lock, and reads the history under it.
    public func historyBeforeLocking() -> LedgerMigrationHistory? {
        nil
    }

    public func withMigrationLock<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try connection.transaction(.readCommitted) { connection in
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [.integer(Self.lockKey)])
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS storerules_migrations (
                    position integer PRIMARY KEY,
                    name text NOT NULL UNIQUE,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
            return try body(connection)
        }
    }

    public func history(on connection: PostgresConnection) throws -> LedgerMigrationHistory {
        .names(try Self.recordedNames(connection))
    }

    public func record(_ migration: LedgerMigration, position: Int, on connection: PostgresConnection) throws {
        try connection.execute(
            "INSERT INTO storerules_migrations (position, name) VALUES ($1, $2)",
            [.integer(Int64(position)), .text(migration.name)])
    }

    /// The names in `storerules_migrations`, in order; the table must exist.
    private static func recordedNames(_ connection: PostgresConnection) throws -> [String] {
        try connection.execute("SELECT name FROM storerules_migrations ORDER BY position").map {
            try $0.decode(String.self, column: "name")
        }
    }
}
