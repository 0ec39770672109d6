/// An ordered list of named schema migrations, applied to a database once each and recorded
/// in its `storerules_migrations` table.
///
/// ``migrate(_:)`` applies the missing migrations in order, each in its own transaction that
/// also records it, so a crash or an error leaves the database at the last migration that
/// completed. Every transaction first takes a transaction-scoped advisory lock
/// (`pg_advisory_xact_lock`), so processes that start together apply each migration once: the
/// others wait, then find it recorded. Migrations are never edited once shipped; a schema
/// change is a new migration appended at the end.
public struct PostgresMigrator: Sendable {
    /// One step of the schema's history.
    public struct Migration: Sendable {
        /// A short name that says what the step does, such as "create ledger tables".
        public let name: String
        /// Applies the step inside the transaction the migrator opened.
        public let apply: @Sendable (PostgresConnection) throws -> Void
    }

    /// The advisory lock key every migrating transaction takes: the bytes of "StoreRul".
    public static let lockKey: Int64 = 0x5374_6F72_6552_756C

    /// The registered migrations, in the order they apply.
    public private(set) var migrations: [Migration] = []

    /// Creates a migrator with no migrations.
    public init() {}

    /// Appends a migration.
    ///
    /// - Precondition: no migration with the same name is registered.
    public mutating func registerMigration(
        _ name: String, apply: @escaping @Sendable (PostgresConnection) throws -> Void
    ) {
        precondition(!migrations.contains { $0.name == name }, "migration '\(name)' is registered twice")
        migrations.append(Migration(name: name, apply: apply))
    }

    /// The names of the migrations applied to the connection's database, in order; empty when
    /// none ever was.
    public func appliedMigrations(on connection: PostgresConnection) throws -> [String] {
        let table = try connection.execute("SELECT to_regclass('storerules_migrations') IS NOT NULL AS present")
        guard try table.first?.decode(Bool.self, column: "present") == true else { return [] }
        return try Self.recordedNames(connection)
    }

    /// Applies every migration the connection's database has not recorded yet, in order.
    ///
    /// Safe to run from several processes or connections at once; each migration is applied by
    /// exactly one of them. Its statements are bounded by ``PostgresTimeouts/migration`` rather
    /// than ``PostgresTimeouts/statement``.
    ///
    /// - Throws: ``PostgresMigrationError/schemaTooNew(applied:known:)`` or
    ///   ``PostgresMigrationError/historyMismatch(position:recorded:registered:)`` when the
    ///   database's history is not a beginning of this one (nothing is changed), or
    ///   ``PostgresMigrationError/migrationFailed(name:position:underlying:)`` when a step fails
    ///   (that step is rolled back; the steps before it stay applied).
    public func migrate(_ connection: PostgresConnection) throws {
        try connection.withStatementTimeout(connection.timeouts.migration) {
            while try applyNextMigration(connection) {}
        }
    }

    /// In one transaction under the lock: applies and records the first migration the database
    /// lacks and returns `true`, or returns `false` when none is missing.
    ///
    /// The transaction runs at READ COMMITTED so that the statements after the lock see what
    /// the lock's previous holder committed.
    private func applyNextMigration(_ connection: PostgresConnection) throws -> Bool {
        var attempted: (name: String, position: Int)?
        do {
            return try connection.transaction(.readCommitted) { connection -> Bool in
                try connection.execute("SELECT pg_advisory_xact_lock($1)", [.integer(Self.lockKey)])
                try connection.execute("""
                    CREATE TABLE IF NOT EXISTS storerules_migrations (
                        position integer PRIMARY KEY,
                        name text NOT NULL UNIQUE,
                        applied_at timestamptz NOT NULL DEFAULT now()
                    )
                    """)
                let recorded = try Self.recordedNames(connection)
                try checkHistory(recorded)
                guard recorded.count < migrations.count else { return false }
                let migration = migrations[recorded.count]
                let position = recorded.count + 1
                attempted = (migration.name, position)
                try migration.apply(connection)
                try connection.execute(
                    "INSERT INTO storerules_migrations (position, name) VALUES ($1, $2)",
                    [.integer(Int64(position)), .text(migration.name)])
                return true
            }
        } catch let error as PostgresMigrationError {
            throw error
        } catch {
            guard let attempted else { throw error }
            throw PostgresMigrationError.migrationFailed(name: attempted.name, position: attempted.position, underlying: error)
        }
    }

    /// Refuses a recorded history that is not a beginning of the registered one.
    private func checkHistory(_ recorded: [String]) throws {
        guard recorded.count <= migrations.count else {
            throw PostgresMigrationError.schemaTooNew(applied: recorded.count, known: migrations.count)
        }
        for (offset, name) in recorded.enumerated() where migrations[offset].name != name {
            throw PostgresMigrationError.historyMismatch(position: offset + 1, recorded: name, registered: migrations[offset].name)
        }
    }

    /// The names in `storerules_migrations`, in order; the table must exist.
    private static func recordedNames(_ connection: PostgresConnection) throws -> [String] {
        try connection.execute("SELECT name FROM storerules_migrations ORDER BY position").map {
            try $0.decode(String.self, column: "name")
        }
    }
}
