import PostgresLedger
import StoreCore
import Testing
import TestPrerequisites

@Suite(.enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason))
struct PostgresLedgerMigrationTests {
    /// The error a broken migration throws.
    private struct Broken: Error {}

    /// Up to three steps; none of them could run twice (`CREATE TABLE` and `ADD COLUMN` without
    /// `IF NOT EXISTS`), and each logs itself in `step_run`.
    private static func steps(_ count: Int) -> [LedgerMigration] {
        let all = [
            LedgerMigration("create notes") { database in
                try database.execute("CREATE TABLE note (id bigint PRIMARY KEY, body text NOT NULL)")
                try database.execute("CREATE TABLE step_run (step text NOT NULL)")
                try database.execute("INSERT INTO step_run VALUES ('create notes')")
            },
            LedgerMigration("add note author") { database in
                try database.execute("ALTER TABLE note ADD COLUMN author text")
                try database.execute("INSERT INTO step_run VALUES ('add note author')")
            },
            LedgerMigration("index note author") { database in
                try database.execute("CREATE INDEX note_author ON note (author)")
                try database.execute("INSERT INTO step_run VALUES ('index note author')")
            },
        ]
        return Array(all.prefix(count))
    }

    /// A migrator of the first `count` steps.
    private static func migrator(steps count: Int) -> LedgerMigrator {
        LedgerMigrator(steps(count))
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
        #expect(try PostgresLedgerMigrationHost(connection: connection).appliedMigrations() == [])
        try PostgresLedgerMigrationHost(connection: connection).migrate(with: migrator)
        #expect(try PostgresLedgerMigrationHost(connection: connection).appliedMigrations() == ["create notes", "add note author"])
        try PostgresLedgerMigrationHost(connection: connection).migrate(with: migrator)
        #expect(try Self.stepRuns(connection) == ["add note author", "create notes"])
        try connection.execute("INSERT INTO note VALUES (1, 'hello', 'ada')")
    }

    @Test("a later run applies only the migrations appended since")
    func appliesOnlyNewMigrations() throws {
        let database = try PostgresTestDatabase()
        try PostgresLedgerMigrationHost(connection: database.connect()).migrate(with: Self.migrator(steps: 1))
        let connection = try database.connect()
        try PostgresLedgerMigrationHost(connection: connection).migrate(with: Self.migrator(steps: 3))
        #expect(try PostgresLedgerMigrationHost(connection: connection).appliedMigrations().count == 3)
        #expect(try Self.stepRuns(connection) == ["add note author", "create notes", "index note author"])
    }

    @Test("a failing migration is rolled back and named, and the ones before it stay applied")
    func failingMigrationRollsBack() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        let migrator = LedgerMigrator(Self.steps(1) + [
            LedgerMigration("broken step") { database in
                try database.execute("CREATE TABLE half_done (x bigint)")
                throw Broken()
            },
        ])
        let error = #expect(throws: LedgerMigrationError.self) { try PostgresLedgerMigrationHost(connection: connection).migrate(with: migrator) }
        guard case .migrationFailed(let name, let position, let underlying) = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(name == "broken step")
        #expect(position == 2)
        #expect(underlying is Broken)
        #expect(try PostgresLedgerMigrationHost(connection: connection).appliedMigrations() == ["create notes"])
        #expect(try connection.execute("SELECT to_regclass('half_done') IS NULL AS absent").first?.decode(Bool.self, at: 0) == true)
    }

    @Test("a database migrated with another history, or by a newer program, is refused and left untouched")
    func foreignHistoryIsRefused() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        try PostgresLedgerMigrationHost(connection: connection).migrate(with: Self.migrator(steps: 2))

        let renamed = LedgerMigrator(["create notes", "add note title", "index note title"].map { LedgerMigration($0) { _ in } })
        let mismatch = #expect(throws: LedgerMigrationError.self) { try PostgresLedgerMigrationHost(connection: connection).migrate(with: renamed) }
        guard case .historyMismatch(let position, let recorded, let registered) = mismatch else {
            Issue.record("expected historyMismatch, got \(String(describing: mismatch))")
            return
        }
        #expect(position == 2 && recorded == "add note author" && registered == "add note title")

        let older = #expect(throws: LedgerMigrationError.self) { try PostgresLedgerMigrationHost(connection: connection).migrate(with: Self.migrator(steps: 1)) }
        guard case .schemaTooNew(let applied, let known) = older else {
            Issue.record("expected schemaTooNew, got \(String(describing: older))")
            return
        }
        #expect(applied == 2 && known == 1)
        #expect(try PostgresLedgerMigrationHost(connection: connection).appliedMigrations().count == 2)
    }

    @Test("six connections migrating at once apply each migration exactly once")
    func concurrentMigratorsApplyOnce() throws {
        let database = try PostgresTestDatabase()
        let migrator = Self.migrator(steps: 3)
        let barrier = ThreadBarrier(parties: 6)
        try runOnThreads(6) { _ in
            let connection = try database.connect()
            try barrier.arriveAndWait()
            try PostgresLedgerMigrationHost(connection: connection).migrate(with: migrator)
        }
        let connection = try database.connect()
        #expect(try PostgresLedgerMigrationHost(connection: connection).appliedMigrations() == ["create notes", "add note author", "index note author"])
        #expect(try Self.stepRuns(connection) == ["add note author", "create notes", "index note author"])
    }
}
