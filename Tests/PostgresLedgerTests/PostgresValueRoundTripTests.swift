import PostgresLedger
import Testing
import TestPrerequisites

@Suite(.enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason))
struct PostgresValueRoundTripTests {
    @Test("text, integers, booleans and NULL come back from the server as the values sent")
    func everyValueTypeRoundTrips() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE sample (label text, amount bigint, small integer, active boolean, note text)")
        try connection.execute(
            "INSERT INTO sample VALUES ($1, $2, $3, $4, $5)", ["pellets", 5, 7, true, nil])
        let rows = try connection.execute("SELECT label, amount, small, active, note FROM sample")
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        #expect(row.values == [.text("pellets"), .integer(5), .integer(7), .boolean(true), nil])
        #expect(try row.decode(String.self, column: "label") == "pellets")
        #expect(try row.decode(Int64.self, at: 1) == 5)
        #expect(try row.decode(Int.self, column: "small") == 7)
        #expect(try row.decode(Bool.self, column: "active") == true)
        #expect(try row.decode(String?.self, column: "note") == nil)

        let echoed = try #require(try connection.execute("SELECT $1 AS t, $2 AS i, $3 AS b, $4 AS n", ["x", -3, false, nil]).first)
        #expect(echoed.columnNames == ["t", "i", "b", "n"])
        #expect(echoed.values == [.text("x"), .integer(-3), .boolean(false), nil])
    }

    @Test("quotes, a literal $1, SQL and unicode in a parameter are stored as text, never run")
    func parametersAreNeverSpliced() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE note (body text NOT NULL)")
        let hostile = "Robert'); DROP TABLE note; -- $1 $2 \\' \"quoted\" é 漢字 🐦 \u{200D}"
        try connection.execute("INSERT INTO note (body) VALUES ($1)", [.text(hostile)])
        let rows = try connection.execute("SELECT body, length(body) AS characters FROM note WHERE body = $1", [.text(hostile)])
        #expect(try rows.first?.decode(String.self, column: "body") == hostile)
        #expect(try rows.first?.decode(Int.self, column: "characters") == hostile.unicodeScalars.count)
        #expect(try connection.execute("SELECT count(*) AS notes FROM note").first?.decode(Int.self, column: "notes") == 1)
    }

    @Test("the largest and smallest 64-bit integers round trip exactly")
    func extremeIntegersRoundTrip() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        for value in [Int64.max, Int64.min, 0, -1, 9_007_199_254_740_993] {
            let row = try #require(try connection.execute("SELECT $1::bigint + 0 AS value", [.integer(value)]).first)
            #expect(try row.decode(Int64.self, column: "value") == value)
        }
        let overflow = #expect(throws: PostgresError.self) {
            try connection.execute("SELECT $1::bigint + 1", [.integer(.max)])
        }
        #expect(overflow?.sqlState == PostgresSQLState(rawValue: "22003"))
    }

    @Test("text holding a NUL character is refused before anything reaches the server")
    func nulCharacterIsRefused() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        let error = #expect(throws: PostgresError.self) {
            try connection.execute("SELECT $1 AS t", [.text("before\u{0}after")])
        }
        #expect(error?.kind == .client)
        #expect(error?.message.contains("$1") == true)
        #expect(try connection.execute("SELECT 1 AS one").first?.decode(Int.self, column: "one") == 1)
    }

    @Test("a column reads only as its own type, NULL only as an Optional, and a missing column is named")
    func strictDecoding() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        let row = try #require(try connection.execute("SELECT 42 AS answer, 'text' AS word, NULL::text AS nothing").first)
        #expect(throws: PostgresError.self) { try row.decode(String.self, column: "answer") }
        #expect(throws: PostgresError.self) { try row.decode(Int.self, column: "word") }
        #expect(throws: PostgresError.self) { try row.decode(String.self, column: "nothing") }
        #expect(try row.decode(Int?.self, column: "answer") == 42)
        let missing = #expect(throws: PostgresError.self) { try row.decode(Int.self, column: "question") }
        #expect(missing?.kind == .client)
        #expect(missing?.message.contains("question") == true)
        #expect(throws: PostgresError.self) { try row.decode(Int.self, at: 3) }
    }
}
