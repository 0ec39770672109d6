import Foundation
import PostgresLedger
import StoreCore
import Testing

/// The connection layer counts every statement it sends, so the bench can say what a read costs.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.skipReason))
struct PostgresRoundTripCountTests {
    @Test("a pool counts each statement its connections send: a transaction is BEGIN, its statements and COMMIT")
    func poolCountsStatements() throws {
        let database = try PostgresTestDatabase()
        let pool = try PostgresConnectionPool(url: database.url, size: 2)
        let start = pool.roundTrips.count
        try pool.withConnection { connection in
            try connection.execute("SELECT 1")
            try connection.execute("SELECT $1::integer", [.integer(2)])
        }
        #expect(pool.roundTrips.count - start == 2)
        _ = try pool.transaction(.readCommitted, retry: PostgresRetryPolicy()) { connection in
            try connection.execute("SELECT 3")
        }
        #expect(pool.roundTrips.count - start == 5)
    }

    @Test("a ledger's storage counts the round trips of its reads")
    func storageCountsReads() throws {
        let database = try PostgresTestDatabase()
        let storage = try PostgresLedgerStorage(url: database.url)
        let ledger = Ledger(storage: storage)
        let before = storage.roundTrips
        _ = try ledger.customer(id: "ana")
        #expect(storage.roundTrips - before == 3, "BEGIN, the customer's SELECT, COMMIT")
    }
}
