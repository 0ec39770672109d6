import Foundation
import PostgresLedger
import StoreCore
import Testing
import TestPrerequisites

/// The connection layer counts every statement it sends, so the bench can say what a read costs.
@Suite(.enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason))
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
        _ = try pool.transaction(.readCommitted, retry: .postgresTransaction) { connection in
            try connection.execute("SELECT 3")
        }
        #expect(pool.roundTrips.count - start == 6, "BEGIN sent with SELECT 3 in one pipeline, then COMMIT")
    }

    @Test("inside a transaction, statements whose results nothing reads travel with the next one read: one round trip")
    func heldStatementsTravelTogether() throws {
        let database = try PostgresTestDatabase()
        let setup = try database.connect()
        try setup.execute("CREATE TABLE item (id bigint PRIMARY KEY, name text NOT NULL)")
        let pool = try PostgresConnectionPool(url: database.url, size: 1)
        let count = try pool.transaction(.readCommitted, retry: .postgresTransaction) { connection in
            _ = try connection.execute("SELECT $1::bigint AS warm", [.integer(0)])
            let before = pool.roundTrips.count
            try connection.send("INSERT INTO item VALUES (1, 'a')")
            try connection.send("INSERT INTO item VALUES (2, 'b')")
            #expect(pool.roundTrips.count == before, "held, not sent")
            let rows = try connection.execute("SELECT count(*) AS n FROM item")
            #expect(pool.roundTrips.count == before + 1, "the two inserts and the count in one pipeline")
            return try rows.first?.decode(Int.self, column: "n")
        }
        #expect(count == 2)
        #expect(try setup.execute("SELECT id FROM item ORDER BY id").map { try $0.decode(Int.self, column: "id") } == [1, 2])
    }

    @Test("a held statement that fails is thrown with the pipeline that carried it, the transaction keeps nothing, and the connection goes on")
    func heldFailureFailsTheTransaction() throws {
        let database = try PostgresTestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE item (id bigint PRIMARY KEY, name text NOT NULL)")
        #expect {
            try connection.transaction { connection in
                try connection.send("INSERT INTO item VALUES (1, 'a')")
                try connection.send("INSERT INTO item VALUES (1, 'twice')")
                try connection.send("INSERT INTO item VALUES (3, 'c')")
            }
        } throws: { error in
            let failure = error as? PostgresError
            return failure?.sqlState == .uniqueViolation && failure?.sql == "INSERT INTO item VALUES (1, 'twice')"
        }
        #expect(!connection.isInsideTransaction)
        #expect(try connection.execute("SELECT count(*) AS n FROM item").first?.decode(Int.self, column: "n") == 0)
        try connection.transaction { try $0.send("INSERT INTO item VALUES (4, 'd')") }
        #expect(try connection.execute("SELECT name FROM item").first?.decode(String.self, column: "name") == "d")
    }

    @Test("a transaction whose body throws before anything is sent costs no round trip and leaves nothing open")
    func unsentTransactionCostsNothing() throws {
        let database = try PostgresTestDatabase()
        let pool = try PostgresConnectionPool(url: database.url, size: 1)
        struct Refused: Error {}
        let before = pool.roundTrips.count
        #expect(throws: Refused.self) {
            try pool.transaction(.readCommitted, retry: .postgresTransaction) { connection in
                try connection.send("INSERT INTO nowhere VALUES (1)")
                throw Refused()
            }
        }
        #expect(pool.roundTrips.count == before)
        try pool.withConnection { #expect(!$0.isInsideTransaction) }
    }

    @Test("an ingest of a new transaction with its grant is three round trips: the read it decides on, and a write of two")
    func newTransactionIngestIsThreeRoundTrips() throws {
        let database = try PostgresTestDatabase()
        let storage = try PostgresLedgerStorage(url: database.url, connections: 1)
        let ledger = Ledger(storage: storage)
        let warm = LedgerPayloads.transaction(id: "warm")
        try ledger.ingest(transaction: warm, jwsRepresentation: LedgerPayloads.jws(warm), customerID: "ana", decide: LedgerPayloads.grants)
        let box = LedgerPayloads.transaction(id: "box", quantity: 2)
        let before = storage.roundTrips
        let result = try ledger.ingest(transaction: box, jwsRepresentation: LedgerPayloads.jws(box), customerID: "ana",
                                       decide: LedgerPayloads.grants)
        #expect(storage.roundTrips - before == 3)
        #expect(result.outcome == .granted([Grant(item: "pellet", amount: 10)]))
        #expect(result.storage == .inserted)
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 15])
        #expect(try ledger.transaction(id: "box")?.grantState == .granted)
        #expect(try ledger.versions(ofTransaction: "box").count == 1)
        #expect(try ledger.checkInvariants().isEmpty)
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
        #expect(storage.roundTrips - before == 5,
                "the customer's SELECT prepared, then sent with BEGIN, COMMIT; then BEGIN with the SELECT, COMMIT")
    }
}
