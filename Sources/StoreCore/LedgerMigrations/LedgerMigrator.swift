/// Applies an ordered list of ``LedgerMigration``s to a database once each, through the
/// ``LedgerMigrationHost`` its storage supplies: the one migrator of both ledger storages.
///
/// ``migrate(_:)`` applies the missing migrations in order, each in its own transaction that
/// holds the host's lock (SQLite's `BEGIN IMMEDIATE`, PostgreSQL's advisory lock) and records
/// it, so a crash or an error leaves the database at the last migration that completed, and
/// processes that start together apply each migration once: the others wait, then find it
/// recorded.
public struct LedgerMigrator: Sendable {
    /// The migrations, in the order they apply.
    public let migrations: [LedgerMigration]

    /// A migrator applying `migrations` in order.
    ///
    /// - Precondition: no two migrations have the same name.
    public init(_ migrations: [LedgerMigration]) {
        precondition(Set(migrations.map(\.name)).count == migrations.count, "a migration is registered twice")
        self.migrations = migrations
    }

    /// The ledger's migrations (``LedgerMigrations/all``) that `dialect`'s history holds.
    public static func ledger(_ dialect: LedgerSQLDialect) -> LedgerMigrator {
        LedgerMigrator(LedgerMigrations.all.filter { $0.dialects.contains(dialect) })
    }

    /// Applies every migration the host's database has not recorded yet, in order.
    ///
    /// - Throws: ``LedgerMigrationError/schemaTooNew(applied:known:)`` or
    ///   ``LedgerMigrationError/historyMismatch(position:recorded:registered:)`` when the
    ///   database's history is not a beginning of this one (nothing is changed), or
    ///   ``LedgerMigrationError/migrationFailed(name:position:underlying:)`` when a step fails
    ///   (that step is rolled back; the steps before it stay applied).
    public func migrate<Host: LedgerMigrationHost>(_ host: Host) throws {
        if let history = try host.historyBeforeLocking() {
            try check(history)
            guard history.count < migrations.count else { return }
        }
        while try applyNextMigration(host) {}
    }

    /// In one locked transaction: applies and records the first migration the database lacks;
    /// returns whether any may still be missing after it (`false` once the last is recorded, or
    /// when none was missing).
    private func applyNextMigration<Host: LedgerMigrationHost>(_ host: Host) throws -> Bool {
        var attempted: (name: String, position: Int)?
        do {
            return try host.withMigrationLock { connection -> Bool in
                let history = try host.history(on: connection)
                try check(history)
                guard history.count < migrations.count else { return false }
                let migration = migrations[history.count]
                let position = history.count + 1
                attempted = (migration.name, position)
                try migration.apply(LedgerMigrationContext(connection))
                try host.record(migration, position: position, on: connection)
                return position < migrations.count
            }
        } catch let error as LedgerMigrationError {
            throw error
        } catch {
            guard let attempted else { throw error }
            throw LedgerMigrationError.migrationFailed(name: attempted.name, position: attempted.position, underlying: error)
        }
    }

    /// Refuses a recorded history that is not a beginning of this one.
    private func check(_ history: LedgerMigrationHistory) throws {
        guard history.count <= migrations.count else {
            throw LedgerMigrationError.schemaTooNew(applied: history.count, known: migrations.count)
        }
        guard case .names(let names) = history else { return }
        for (offset, name) in names.enumerated() where migrations[offset].name != name {
            throw LedgerMigrationError.historyMismatch(position: offset + 1, recorded: name, registered: migrations[offset].name)
        }
    }
}
