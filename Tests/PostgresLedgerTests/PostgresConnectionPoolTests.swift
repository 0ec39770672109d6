import Foundation
import PostgresLedger
import StoreCore
import Synchronization
import Testing
import TestPrerequisites

@Suite(.enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason))
struct PostgresConnectionPoolTests {
    @Test("eight threads share a pool of three connections, lose no update, and never hold more than three")
    func eightThreadsShareThreeConnections() throws {
        let database = try PostgresTestDatabase()
        try database.connect().execute("CREATE TABLE counter (id bigint PRIMARY KEY, value bigint NOT NULL)")
        try database.connect().execute("INSERT INTO counter VALUES (1, 0)")
        let pool = try PostgresConnectionPool(url: database.url, size: 3)
        let inUse = Mutex((now: 0, most: 0))
        let backends = Mutex(Set<Int32>())
        try runOnThreads(8) { _ in
            for _ in 0..<25 {
                try pool.transaction { connection in
                    inUse.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                    defer { inUse.withLock { $0.now -= 1 } }
                    backends.withLock { _ = $0.insert(connection.backendProcessID) }
                    try connection.execute("UPDATE counter SET value = value + 1 WHERE id = 1")
                }
            }
        }
        let value = try pool.withConnection { try $0.execute("SELECT value FROM counter").first?.decode(Int.self, at: 0) }
        #expect(value == 200)
        #expect(inUse.withLock { $0.most } <= 3)
        #expect(backends.withLock { $0.count } <= 3)
        #expect(pool.openConnectionCount <= 3)
    }

    @Test("a pooled connection whose session was terminated fails its next statement as transient, and the pool replaces it")
    func terminatedConnectionIsReplaced() throws {
        let database = try PostgresTestDatabase()
        let pool = try PostgresConnectionPool(url: database.url, size: 1)
        let first = try pool.withConnection { $0.backendProcessID }
        try database.terminate(backend: first)

        let error = #expect(throws: PostgresError.self) {
            try pool.withConnection { try $0.execute("SELECT 1") }
        }
        #expect(error?.kind == .connection)
        #expect(error?.isTransient == true)

        let (second, one) = try pool.withConnection { connection in
            (connection.backendProcessID, try connection.execute("SELECT 1 AS one").first?.decode(Int.self, column: "one"))
        }
        #expect(one == 1)
        #expect(second != first)
        #expect(pool.openConnectionCount == 1)
    }

    @Test("a pooled transaction interrupted by a terminated session runs again on a fresh connection")
    func transactionRetriesOnAFreshConnection() throws {
        let database = try PostgresTestDatabase()
        try database.connect().execute("CREATE TABLE entry (id bigint PRIMARY KEY)")
        let pool = try PostgresConnectionPool(url: database.url, size: 2)
        let backends = Mutex<[Int32]>([])
        try pool.transaction(retry: Backoff(maximumAttempts: 3, initialDelay: .milliseconds(5), maximumDelay: .seconds(1))) { connection in
            let pid = connection.backendProcessID
            let isFirstRun = backends.withLock { $0.append(pid); return $0.count == 1 }
            try connection.execute("INSERT INTO entry VALUES (1)")
            if isFirstRun { try database.terminate(backend: pid) }
            try connection.execute("INSERT INTO entry VALUES (2)")
        }
        let seen = backends.withLock { $0 }
        #expect(seen.count == 2)
        #expect(Set(seen).count == 2)
        let ids = try database.connect().execute("SELECT id FROM entry ORDER BY id").map { try $0.decode(Int.self, at: 0) }
        #expect(ids == [1, 2])
    }

    @Test("a connection checked in inside a transaction is rolled back before anyone else gets it")
    func checkinRollsBack() throws {
        let database = try PostgresTestDatabase()
        try database.connect().execute("CREATE TABLE entry (id bigint PRIMARY KEY)")
        let pool = try PostgresConnectionPool(url: database.url, size: 1)
        let connection = try pool.checkout()
        try connection.execute("BEGIN")
        try connection.execute("INSERT INTO entry VALUES (1)")
        pool.checkin(connection)
        let rows = try pool.withConnection { connection in
            #expect(connection.isInsideTransaction == false)
            return try connection.execute("SELECT id FROM entry")
        }
        #expect(rows.isEmpty)
    }

    @Test("checkout waits while every connection is out, and fails after its timeout")
    func checkoutTimesOut() throws {
        let database = try PostgresTestDatabase()
        let pool = try PostgresConnectionPool(url: database.url, size: 1, timeouts: PostgresTimeouts(checkout: .milliseconds(200)))
        let held = try pool.checkout()
        let clock = ContinuousClock()
        let started = clock.now
        let error = #expect(throws: PostgresError.self) { try pool.checkout() }
        #expect(clock.now - started >= .milliseconds(200), "it waited the whole timeout before failing")
        #expect(error?.kind == .timeout)
        #expect(error?.isTransient == true)
        pool.checkin(held)
        let again = try pool.checkout()
        #expect(again === held)
        pool.checkin(again)
    }

    @Test("a connection checked in wakes a checkout waiting for one, which gets it")
    func checkinWakesAWaiter() throws {
        let database = try PostgresTestDatabase()
        let pool = try PostgresConnectionPool(url: database.url, size: 1, timeouts: PostgresTimeouts(checkout: .seconds(60)))
        let held = try pool.checkout()
        let waiting = DispatchSemaphore(value: 0)
        let got = Mutex<ObjectIdentifier?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            waiting.signal()
            let connection = try? pool.checkout()
            got.withLock { $0 = connection.map(ObjectIdentifier.init) }
            finished.signal()
        }.start()
        waiting.wait()
        // The waiter cannot have a connection while this one is out.
        #expect(finished.wait(timeout: .now() + .milliseconds(300)) == .timedOut)
        pool.checkin(held)
        #expect(finished.wait(timeout: .now() + 30) == .success, "the check-in woke the waiter long before its 60 s timeout")
        #expect(got.withLock { $0 } == ObjectIdentifier(held))
    }
}
