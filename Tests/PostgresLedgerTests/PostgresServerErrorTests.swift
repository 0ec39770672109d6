import PostgresLedger
import Testing
import TestPrerequisites

@Suite(.enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason))
struct PostgresServerErrorTests {
    @Test("a syntax error carries SQLSTATE 42601, the server's message and the statement, and the connection stays usable")
    func syntaxError() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        let error = #expect(throws: PostgresError.self) { try connection.execute("SELEC 1") }
        #expect(error?.kind == .server)
        #expect(error?.sqlState == .syntaxError)
        #expect(error?.message.contains("syntax error") == true)
        #expect(error?.sql == "SELEC 1")
        #expect(error?.isTransient == false)
        #expect(connection.isBroken == false)
        #expect(try connection.execute("SELECT 1 AS one").first?.decode(Int.self, column: "one") == 1)
    }

    @Test("a unique violation carries SQLSTATE 23505, is permanent, and leaves the connection usable")
    func uniqueViolation() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE grant_key (transaction_id text PRIMARY KEY)")
        try connection.execute("INSERT INTO grant_key VALUES ($1)", ["2000000000000001"])
        let error = #expect(throws: PostgresError.self) {
            try connection.execute("INSERT INTO grant_key VALUES ($1)", ["2000000000000001"])
        }
        #expect(error?.sqlState == .uniqueViolation)
        #expect(error?.isTransient == false)
        #expect(error?.description.contains("23505") == true)
        #expect(error?.description.contains("INSERT INTO grant_key") == true)
        try connection.execute("INSERT INTO grant_key VALUES ($1)", ["2000000000000002"])
        #expect(try connection.execute("SELECT count(*) AS keys FROM grant_key").first?.decode(Int.self, column: "keys") == 2)
    }

    @Test("a statement given the wrong number of parameters fails permanently, not as a retryable connection exception")
    func wrongParameterCount() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        let error = #expect(throws: PostgresError.self) { try connection.execute("SELECT $1::int + $2::int", [1]) }
        #expect(error?.sqlState == .protocolViolation)
        #expect(error?.isTransient == false)
        #expect(try connection.execute("SELECT $1::int + $2::int AS sum", [1, 2]).first?.decode(Int.self, column: "sum") == 3)
    }
}
