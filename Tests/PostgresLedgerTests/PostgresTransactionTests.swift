import PostgresLedger
import Testing
import TestPrerequisites

@Suite(.enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason))
struct PostgresTransactionTests {
    /// The error a test's transaction body throws to abandon it.
    private struct Abandon: Error {}

    /// How many rows `entry` holds.
    private static func count(_ connection: PostgresConnection) throws -> Int {
        try connection.execute("SELECT count(*) AS rows FROM entry").first?.decode(Int.self, column: "rows") ?? -1
    }

    @Test("a transaction whose body returns commits every change and returns the body's value")
    func commits() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE entry (id bigint PRIMARY KEY)")
        let inserted = try connection.transaction { connection in
            try connection.execute("INSERT INTO entry VALUES (1)")
            try connection.execute("INSERT INTO entry VALUES (2)")
            return 2
        }
        #expect(inserted == 2)
        #expect(connection.isInsideTransaction == false)
        #expect(try Self.count(database.connect()) == 2)
    }

    @Test("a transaction whose body throws rolls every change back and rethrows the body's error")
    func rollsBack() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE entry (id bigint PRIMARY KEY)")
        #expect(throws: Abandon.self) {
            try connection.transaction { connection in
                try connection.execute("INSERT INTO entry VALUES (1)")
                throw Abandon()
            }
        }
        #expect(connection.isInsideTransaction == false)
        #expect(try Self.count(connection) == 0)
    }

    @Test("a transaction whose failed statement the body caught is rolled back, not reported as committed")
    func swallowedFailureRollsBack() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE entry (id bigint PRIMARY KEY)")
        let error = #expect(throws: PostgresError.self) {
            try connection.transaction { connection in
                try connection.execute("INSERT INTO entry VALUES (1)")
                _ = try? connection.execute("INSERT INTO entry VALUES (1)")
            }
        }
        #expect(error?.kind == .client)
        #expect(connection.isInsideTransaction == false)
        #expect(try Self.count(connection) == 0)
    }

    @Test("a transaction cannot begin inside another on the same connection")
    func noNesting() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE entry (id bigint PRIMARY KEY)")
        #expect(throws: PostgresError.self) {
            try connection.transaction { connection in
                try connection.execute("INSERT INTO entry VALUES (1)")
                try connection.transaction { _ in }
            }
        }
        #expect(try Self.count(connection) == 0)
    }

    @Test("the server runs the transaction at the isolation level asked for", arguments: PostgresIsolationLevel.allCases)
    func isolationLevel(level: PostgresIsolationLevel) throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        let reported = try connection.transaction(level) { connection in
            try connection.execute("SHOW transaction_isolation").first?.decode(String.self, at: 0)
        }
        #expect(reported?.uppercased() == level.rawValue)
    }
}
