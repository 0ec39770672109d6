import Foundation
import PostgresLedger
import StoreCore
import Testing

/// The connection layer counts every statement it sends, so the bench can say what a read costs.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.skipReason))
struct PostgresRoundTripCountTests {
    @Test("a pool counts each round trip: a statement, a statement with parameters prepared the first time, BEGIN and COMMIT")
    func poolCountsStatements() throws {
        let database = try PostgresTestDatabase()
        let pool = try PostgresConnectionPool(url: database.url, size: 1)
        let start = pool.roundTrips.count
        try pool.withConnection { connection in
            try connection.execute("SELECT 1")
            let rows = try connection.execute("SELECT $1::integer AS n", [.integer(2)])
            let number = try rows.first?.decode(Int.self, column: "n")
            #expect(number == 2)
        }
        #expect(pool.roundTrips.count - start == 3, "SELECT 1; the second statement prepared, then run")
        try pool.withConnection { connection in
            let rows = try connection.execute("SELECT $1::integer AS n", [.integer(5)])
            let number = try rows.first?.decode(Int.self, column: "n")
            #expect(number == 5)
        }
        #expect(pool.roundTrips.count - start == 4, "run by name, prepared once per connection")
        _ = try pool.transaction(.readCommitted, retry: PostgresRetryPolicy()) { connection in
            try connection.execute("SELECT 3")
        }
        #expect(pool.roundTrips.count - start == 7)
    }

    @Test("a prepared statement the server refuses reports the server's reason, as an unprepared one would")
    func refusedPreparationReportsWhy() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        #expect {
            try connection.execute("SELEC $1", [.integer(1)])
        } throws: { error in
            (error as? PostgresError)?.sqlState == .syntaxError
        }
        let rows = try connection.execute("SELECT $1::text AS t", [.text("still usable")])
        let text = try rows.first?.decode(String.self, column: "t")
        #expect(text == "still usable")
    }

    @Test("a prepared statement whose table changed under it runs again unprepared")
    func changedSchemaIsRunAgain() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE item (id bigint, name text)")
        try connection.execute("INSERT INTO item VALUES (1, 'a')")
        #expect(try connection.execute("SELECT * FROM item WHERE id = $1", [.integer(1)]).count == 1)
        try connection.execute("ALTER TABLE item ADD COLUMN price bigint DEFAULT 7")
        let rows = try connection.execute("SELECT * FROM item WHERE id = $1", [.integer(1)])
        let price = try rows.first?.decode(Int.self, column: "price")
        #expect(price == 7)
    }

    @Test("a ledger's storage counts the round trips of its reads")
    func storageCountsReads() throws {
        let database = try PostgresTestDatabase()
        let storage = try PostgresLedgerStorage(url: database.url)
        let ledger = Ledger(storage: storage)
        let before = storage.roundTrips
        _ = try ledger.customer(id: "ana")
        _ = try ledger.customer(id: "ana")
        #expect(storage.roundTrips - before == 7, "BEGIN, the customer's SELECT prepared then run, COMMIT; then BEGIN, SELECT, COMMIT")
    }
}
