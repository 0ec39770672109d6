import PostgresLedger
import StoreCore
import Synchronization
import Testing
import TestPrerequisites

@Suite(.enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason))
struct PostgresConflictRetryTests {
    /// Two doctors on call; each transaction lets its doctor go off call when both are still on.
    /// Run concurrently at SERIALIZABLE (both read, then both write), one of them must fail.
    private static func prepareWriteSkew(_ database: PostgresTestDatabase) throws {
        try database.connect().execute("CREATE TABLE doctor (id bigint PRIMARY KEY, on_call boolean NOT NULL)")
        try database.connect().execute("INSERT INTO doctor VALUES (1, true), (2, true)")
    }

    /// Doctor `doctor` goes off call when both are on call, as seen after meeting `barrier`.
    private static func goOffCall(_ doctor: Int, _ connection: PostgresConnection, meeting barrier: ThreadBarrier?) throws {
        let onCall = try connection.execute("SELECT count(*) AS on_call FROM doctor WHERE on_call").first?
            .decode(Int.self, column: "on_call") ?? 0
        try barrier?.arriveAndWait()
        if onCall >= 2 {
            try connection.execute("UPDATE doctor SET on_call = false WHERE id = $1", [.integer(Int64(doctor))])
        }
    }

    /// How many doctors are on call.
    private static func onCallCount(_ database: PostgresTestDatabase) throws -> Int {
        try database.connect().execute("SELECT count(*) AS n FROM doctor WHERE on_call").first?.decode(Int.self, column: "n") ?? -1
    }

    @Test("two serializable transactions in write skew: one fails with a transient serialization failure")
    func serializationFailureIsTransient() throws {
        let database = try PostgresTestDatabase()
        try Self.prepareWriteSkew(database)
        let barrier = ThreadBarrier(parties: 2)
        let failures = Mutex<[PostgresError]>([])
        try runOnThreads(2) { index in
            let connection = try database.connect()
            do {
                try connection.transaction(.serializable) { try Self.goOffCall(index + 1, $0, meeting: barrier) }
            } catch let error as PostgresError {
                failures.withLock { $0.append(error) }
            }
        }
        let recorded = failures.withLock { $0 }
        #expect(recorded.count == 1)
        #expect(recorded.first?.sqlState == .serializationFailure)
        #expect(recorded.first?.isTransient == true)
        #expect(try Self.onCallCount(database) == 1)
    }

    @Test("a backoff runs the failed serializable transaction again, which then sees the other's commit")
    func retryResolvesSerializationFailure() throws {
        let database = try PostgresTestDatabase()
        try Self.prepareWriteSkew(database)
        let barrier = ThreadBarrier(parties: 2)
        let runs = Mutex(0)
        let retry = Backoff(maximumAttempts: 4, initialDelay: .milliseconds(5), maximumDelay: .seconds(1))
        try runOnThreads(2) { index in
            let connection = try database.connect()
            var attempt = 0
            try retry.runRetryingTransientErrors {
                attempt += 1
                runs.withLock { $0 += 1 }
                try connection.transaction(.serializable) {
                    try Self.goOffCall(index + 1, $0, meeting: attempt == 1 ? barrier : nil)
                }
            }
        }
        #expect(runs.withLock { $0 } == 3)
        #expect(try Self.onCallCount(database) == 1)
    }

    @Test("two transactions locking rows in opposite orders deadlock, and a backoff that runs them again resolves it")
    func retryResolvesDeadlock() throws {
        let database = try PostgresTestDatabase()
        try database.connect().execute("CREATE TABLE account (id bigint PRIMARY KEY, balance bigint NOT NULL)")
        try database.connect().execute("INSERT INTO account VALUES (1, 100), (2, 100)")
        let barrier = ThreadBarrier(parties: 2)
        let deadlocks = Mutex(0)
        let retry = Backoff(maximumAttempts: 4, initialDelay: .milliseconds(5), maximumDelay: .seconds(1))
        try runOnThreads(2) { index in
            let connection = try database.connect()
            // The first thread moves 10 from account 1 to 2, the second 30 from 2 to 1.
            let (first, second, amount): (Int64, Int64, Int64) = index == 0 ? (1, 2, 10) : (2, 1, 30)
            var attempt = 0
            try retry.runRetryingTransientErrors {
                attempt += 1
                do {
                    try connection.transaction { connection in
                        try connection.execute("UPDATE account SET balance = balance - $2 WHERE id = $1", [.integer(first), .integer(amount)])
                        if attempt == 1 { try barrier.arriveAndWait() }
                        try connection.execute("UPDATE account SET balance = balance + $2 WHERE id = $1", [.integer(second), .integer(amount)])
                    }
                } catch let error as PostgresError where error.sqlState == .deadlockDetected {
                    deadlocks.withLock { $0 += 1 }
                    throw error
                }
            }
        }
        #expect(deadlocks.withLock { $0 } == 1)
        let balances = try database.connect().execute("SELECT balance FROM account ORDER BY id").map { try $0.decode(Int.self, at: 0) }
        #expect(balances == [120, 80])
    }
}
