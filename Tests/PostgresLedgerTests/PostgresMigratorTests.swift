import PostgresLedger
import Testing
import TestPrerequisites

@Suite(.enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason))
struct PostgresMigratorTests {
    /// The error a broken migration throws.
    private struct Broken: Error {}

    /// Up to three steps; none of them could run twice (`CREATE TABLE` and `ADD COLUMN` without
    /// `IF NOT EXISTS`), and each logs itself in `step_run`.
    private static func migrator(steps: Int) -> PostgresMigrator {
        var migrator = PostgresMigrator()
        migrator.registerMigration("create notes") { connection in
            try connection.execute("CREATE TABLE note (id bigint PRIMARY KEY, body text NOT NULL)")
            try connection.execute("CREATE TABLE step_run (step text NOT NULL)")
            try connection.execute("INSERT INTO step_run VALUES ('create notes')")
        }
        if steps >= 2 {
            migrator.registerMigration("add note author") { connection in
                try connection.execute("ALTER TABLE note ADD COLUMN author text")
                try connection.execute("INSERT INTO step_run VALUES ('add note author')")
            }
        }
        if steps >= 3 {
            migrator.registerMigration("index note author") { connection in
                try connection.execute("CREATE INDEX note_author ON note (author)")
                try connection.execute("INSERT INTO step_run VALUES ('index note author')")
            }
        }
        return migrator
    }

    /// The steps logged in `step_run`, sorted by name.
    private static func stepRuns(_ connection: PostgresConnection) throws -> [String] {
        try connection.execute("SELECT step FROM step_run ORDER BY step").map { try $0.decode(String.self, at: 0) }
    }

    @Test("migrations apply in order, once each, and are recorded by name")
    func appliesInOrder() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        let migrator = Self.migrator(steps: 2)
        #expect(try migrator.appliedMigrations(on: connection) == [])
        try migrator.migrate(connection)
        #expect(try migrator.appliedMigrations(on: connection) == ["create notes", "add note author"])
        try migrator.migrate(connection)
        #expect(try Self.stepRuns(connection) == ["add note author", "create notes"])
        try connection.execute("INSERT INTO note VALUES (1, 'hello', 'ada')")
    }

    @Test("a later run applies only the migrations appended since")
    func appliesOnlyNewMigrations() throws {
        let database = try PostgresTestDatabase()
        try Self.migrator(steps: 1).migrate(database.connect())
        let connection = try database.connect()
        try Self.migrator(steps: 3).migrate(connection)
        #expect(try Self.migrator(steps: 3).appliedMigrations(on: connection).count == 3)
        #expect(try Self.stepRuns(connection) == ["add note author", "create notes", "index note author"])
    }

    @Test("a failing migration is rolled back and named, and the ones before it stay applied")
    func failingMigrationRollsBack() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        var migrator = Self.migrator(steps: 1)
        migrator.registerMigration("broken step") { connection in
            try connection.execute("CREATE TABLE half_done (x bigint)")
            throw Broken()
        }
        let error = #expect(throws: PostgresMigrationError.self) { try migrator.migrate(connection) }
        guard case .migrationFailed(let name, let position, let underlying) = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(name == "broken step")
        #expect(position == 2)
        #expect(underlying is Broken)
        #expect(try migrator.appliedMigrations(on: connection) == ["create notes"])
        #expect(try connection.execute("SELECT to_regclass('half_done') IS NULL AS absent").first?.decode(Bool.self, at: 0) == true)
    }

    @Test("a database migrated with another history, or by a newer program, is refused and left untouched")
    func foreignHistoryIsRefused() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        try Self.migrator(steps: 2).migrate(connection)

        var renamed = PostgresMigrator()
        renamed.registerMigration("create notes") { _ in }
        renamed.registerMigration("add note title") { _ in }
        renamed.registerMigration("index note title") { _ in }
        let mismatch = #expect(throws: PostgresMigrationError.self) { try renamed.migrate(connection) }
        guard case .historyMismatch(let position, let recorded, let registered) = mismatch else {
            Issue.record("expected historyMismatch, got \(String(describing: mismatch))")
            return
        }
        #expect(position == 2 && recorded == "add note author" && registered == "add note title")

        let older = #expect(throws: PostgresMigrationError.self) { try Self.migrator(steps: 1).migrate(connection) }
        guard case .schemaTooNew(let applied, let known) = older else {
            Issue.record("expected schemaTooNew, got \(String(describing: older))")
            return
        }
        #expect(applied == 2 && known == 1)
        #expect(try Self.migrator(steps: 2).appliedMigrations(on: connection).count == 2)
    }

    @Test("six connections migrating at once apply each migration exactly once")
    func concurrentMigratorsApplyOnce() throws {
        let database = try PostgresTestDatabase()
        let migrator = Self.migrator(steps: 3)
        let barrier = ThreadBarrier(parties: 6)
        try runOnThreads(6) { _ in
            let connection = try database.connect()
            try barrier.arriveAndWait()
            try migrator.migrate(connection)
        }
        let connection = try database.connect()
        #expect(try migrator.appliedMigrations(on: connection) == ["create notes", "add note author", "index note author"])
        #expect(try Self.stepRuns(connection) == ["add note author", "create notes", "index note author"])
    }
}
