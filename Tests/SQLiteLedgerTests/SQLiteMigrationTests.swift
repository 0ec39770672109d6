import Foundation
import Testing
@testable import SQLiteLedger
import StoreCore
import TestPrerequisites

@Suite struct SQLiteMigrationTests {
    private static func migrator(steps: Int) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("create notes") { try $0.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL)") }
        if steps >= 2 {
            migrator.registerMigration("add note author") { try $0.execute("ALTER TABLE note ADD COLUMN author TEXT") }
        }
        if steps >= 3 {
            migrator.registerMigration("index note author") { try $0.execute("CREATE INDEX note_author ON note(author)") }
        }
        return migrator
    }

    @Test func migrationsApplyInOrderAndRecordTheSchemaVersion() throws {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("notes.sqlite"))
        let migrator = Self.migrator(steps: 2)
        #expect(try migrator.schemaVersion(of: database) == 0)
        try migrator.migrate(database)
        #expect(try migrator.schemaVersion(of: database) == 2)
        try database.write { try $0.execute("INSERT INTO note (body, author) VALUES ('hello', 'ada')") }
    }

    @Test func reopeningAnExistingFileAppliesOnlyTheNewMigrations() throws {
        let directory = try SQLiteTemporaryDirectory()
        let path = directory.path("notes.sqlite")
        do {
            let database = try Database(path: path)
            try Self.migrator(steps: 2).migrate(database)
            try database.write { try $0.execute("INSERT INTO note (body, author) VALUES ('kept', 'ada')") }
        }
        do {
            let database = try Database(path: path)
            try Self.migrator(steps: 2).migrate(database)
            #expect(try Self.migrator(steps: 2).schemaVersion(of: database) == 2)
        }
        let database = try Database(path: path)
        try Self.migrator(steps: 3).migrate(database)
        #expect(try Self.migrator(steps: 3).schemaVersion(of: database) == 3)
        #expect(try database.read { try $0.fetchValue(String.self, "SELECT body FROM note WHERE author = 'ada'") } == "kept")
        let index = try database.read {
            try $0.fetchValue(String.self, "SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'note_author'")
        }
        #expect(index == "note_author")
    }

    @Test func aFailingMigrationIsRolledBackAndNamed() throws {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("notes.sqlite"))
        var migrator = Self.migrator(steps: 1)
        migrator.registerMigration("broken step") { connection in
            try connection.execute("CREATE TABLE half_done (x INTEGER)")
            try connection.execute("ALTER TABLE missing ADD COLUMN y TEXT")
        }
        let error = #expect(throws: DatabaseMigrationError.self) { try migrator.migrate(database) }
        guard case .migrationFailed(let name, let version, let underlying) = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(name == "broken step")
        #expect(version == 2)
        #expect((underlying as? SQLiteError)?.sql == "ALTER TABLE missing ADD COLUMN y TEXT")
        #expect(try migrator.schemaVersion(of: database) == 1)
        let halfDone = try database.read {
            try $0.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = 'half_done'")
        }
        #expect(halfDone == 0)
    }

    @Test func aFileFromANewerSchemaIsRejectedAndLeftAlone() throws {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("notes.sqlite"))
        try Self.migrator(steps: 3).migrate(database)
        let error = #expect(throws: DatabaseMigrationError.self) { try Self.migrator(steps: 2).migrate(database) }
        guard case .schemaVersionTooNew(let found, let known) = error else {
            Issue.record("expected schemaVersionTooNew, got \(String(describing: error))")
            return
        }
        #expect(found == 3)
        #expect(known == 2)
        #expect(try Self.migrator(steps: 3).schemaVersion(of: database) == 3)
    }
}
