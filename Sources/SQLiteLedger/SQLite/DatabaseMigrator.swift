/// An ordered list of named schema migrations, applied to a ``Database`` once each.
///
/// The schema version of a file is its `PRAGMA user_version`: the number of migrations that
/// have been applied to it. ``migrate(_:)`` applies the missing ones in order, each in its own
/// `BEGIN IMMEDIATE` transaction that also advances `user_version`, so a crash or an error
/// leaves the file at the last migration that completed. Migrations are never edited once
/// shipped; a schema change is a new migration appended at the end.
public struct DatabaseMigrator: Sendable {
    /// One step of the schema's history.
    public struct Migration: Sendable {
        /// A short name that says what the step does, such as "create ledger tables".
        public let name: String
        /// Applies the step inside the transaction the migrator opened.
        public let apply: @Sendable (DatabaseConnection) throws -> Void
    }

    /// The registered migrations, in the order they apply.
    public private(set) var migrations: [Migration] = []

    /// Creates a migrator with no migrations.
    public init() {}

    /// Appends a migration.
    ///
    /// - Precondition: no migration with the same name is registered.
    public mutating func registerMigration(
        _ name: String, apply: @escaping @Sendable (DatabaseConnection) throws -> Void
    ) {
        precondition(!migrations.contains { $0.name == name }, "migration '\(name)' is registered twice")
        migrations.append(Migration(name: name, apply: apply))
    }

    /// The schema version of `database`: how many migrations have been applied to it.
    public func schemaVersion(of database: Database) throws -> Int {
        try database.read { try Self.schemaVersion(of: $0) }
    }

    /// Applies every migration `database` has not seen yet, in order.
    ///
    /// Safe to run from several processes at once: each step re-reads the version under the
    /// write lock and skips what another process applied meanwhile.
    ///
    /// - Throws: ``DatabaseMigrationError/schemaVersionTooNew(found:known:)`` when the file was
    ///   migrated by a newer program (nothing is changed), or
    ///   ``DatabaseMigrationError/migrationFailed(name:version:underlying:)`` when a step fails
    ///   (that step is rolled back; the steps before it stay applied).
    public func migrate(_ database: Database) throws {
        let found = try schemaVersion(of: database)
        guard found <= migrations.count else {
            throw DatabaseMigrationError.schemaVersionTooNew(found: found, known: migrations.count)
        }
        for (offset, migration) in migrations.enumerated().dropFirst(found) {
            let version = offset + 1
            do {
                try database.write { connection in
                    let current = try Self.schemaVersion(of: connection)
                    guard current < version else { return }
                    try migration.apply(connection)
                    try connection.execute("PRAGMA user_version = \(version)")
                }
            } catch {
                throw DatabaseMigrationError.migrationFailed(name: migration.name, version: version, underlying: error)
            }
        }
    }

    private static func schemaVersion(of connection: DatabaseConnection) throws -> Int {
        try connection.fetchValue(Int.self, "PRAGMA user_version") ?? 0
    }
}
