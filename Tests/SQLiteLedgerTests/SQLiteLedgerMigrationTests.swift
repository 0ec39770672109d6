import Foundation
import StoreCore
import SQLiteLedger
import Testing
import TestPrerequisites

/// The ledger's migrator on a SQLite file: steps applied in order under `BEGIN IMMEDIATE`,
/// counted in `PRAGMA user_version`, a failing one rolled back and named, a newer file refused.
@Suite struct SQLiteLedgerMigrationTests {
    /// The error a broken migration throws.
    private struct Broken: Error {}

    /// Up to three steps; none of them could run twice (`CREATE TABLE` and `ADD COLUMN`).
    private static func migrator(steps count: Int) -> LedgerMigrator {
        let steps = [
            LedgerMigration("create notes") { try $0.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL)") },
            LedgerMigration("add note author") { try $0.execute("ALTER TABLE note ADD COLUMN author TEXT") },
            LedgerMigration("index note author") { try $0.execute("CREATE INDEX note_author ON note (author)") },
        ]
        return LedgerMigrator(Array(steps.prefix(count)))
    }

    @Test("migrations apply in order, once each, and the file counts them; a later run applies only those appended since")
    func appliesInOrderOnce() throws {
        let directory = try SQLiteTemporaryDirectory()
        let host = SQLiteLedgerMigrationHost(database: try Database(path: directory.path("notes.sqlite")))
        #expect(try host.schemaVersion() == 0)
        try Self.migrator(steps: 2).migrate(host)
        try Self.migrator(steps: 2).migrate(host)
        #expect(try host.schemaVersion() == 2)
        try Self.migrator(steps: 3).migrate(host)
        #expect(try host.schemaVersion() == 3)
        try host.database.write { try $0.execute("INSERT INTO note (body, author) VALUES ('hello', 'ada')") }
    }

    @Test("a failing migration is rolled back and named, and the ones before it stay applied")
    func failingMigrationRollsBack() throws {
        let directory = try SQLiteTemporaryDirectory()
        let host = SQLiteLedgerMigrationHost(database: try Database(path: directory.path("notes.sqlite")))
        let migrator = LedgerMigrator(Self.migrator(steps: 1).migrations + [
            LedgerMigration("broken step") { database in
                try database.execute("CREATE TABLE half_done (x INTEGER)")
                throw Broken()
            },
        ])
        let error = #expect(throws: LedgerMigrationError.self) { try migrator.migrate(host) }
        guard case .migrationFailed(let name, let position, let underlying) = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(name == "broken step" && position == 2)
        #expect(underlying is Broken)
        #expect(try host.schemaVersion() == 1)
        #expect(try host.database.read {
            try $0.fetchValue(String.self, "SELECT name FROM sqlite_master WHERE name = 'half_done'")
        } == nil)
    }

    @Test("a file migrated by a newer program is refused and left untouched")
    func newerFileIsRefused() throws {
        let directory = try SQLiteTemporaryDirectory()
        let host = SQLiteLedgerMigrationHost(database: try Database(path: directory.path("notes.sqlite")))
        try Self.migrator(steps: 3).migrate(host)
        let error = #expect(throws: LedgerMigrationError.self) { try Self.migrator(steps: 2).migrate(host) }
        guard case .schemaTooNew(let applied, let known) = error else {
            Issue.record("expected schemaTooNew, got \(String(describing: error))")
            return
        }
        #expect(applied == 3 && known == 2)
        #expect(try host.schemaVersion() == 3)
    }
}
