import Foundation
import PostgresLedger
import StoreCore
import Testing
import TestPrerequisites

/// A PostgreSQL server that stops answering — every process of a server of the test's own
/// stopped with SIGSTOP — holds no caller past its deadline, and its connections are replaced
/// once it answers again.
@Suite(.enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason), .timeLimit(.minutes(3)))
struct FrozenServerTests {
    /// Short deadlines, far above what a statement takes on a server that answers.
    static let timeouts = PostgresTimeouts(connect: .seconds(3), statement: .seconds(3), checkout: .seconds(3))

    @Test("on a frozen server a statement, a transaction and a new connection each give up at their deadline as transient timeouts; the pool replaces its connections once the server answers again")
    func poolOnAFrozenServer() throws {
        let server = try FreezablePostgresServer()
        let pool = try PostgresConnectionPool(url: server.url, size: 2, timeouts: Self.timeouts)
        let (first, second) = (try pool.checkout(), try pool.checkout())
        let frozenBackends: Set = [first.backendProcessID, second.backendProcessID]
        pool.checkin(first)
        pool.checkin(second)

        try server.freeze()
        let statement = #expect(throws: PostgresError.self) { try pool.withConnection { try $0.execute("SELECT 1") } }
        let transaction = #expect(throws: PostgresError.self) {
            try pool.transaction { try $0.execute("SELECT 1 AS one") }
        }
        let connecting = #expect(throws: PostgresError.self) { try pool.withConnection { try $0.execute("SELECT 1") } }
        try server.thaw()

        for error in [statement, transaction, connecting] {
            #expect(error?.kind == .timeout, "\(error.map(String.init(describing:)) ?? "nothing thrown")")
            #expect(error?.isTransient == true)
            #expect(error?.message.contains("the database did not answer within 3 s") == true)
        }
        let answers = try pool.withConnection { connection in
            (connection.backendProcessID, try connection.execute("SELECT 1 AS one").first?.decode(Int.self, column: "one"))
        }
        #expect(answers.1 == 1)
        #expect(!frozenBackends.contains(answers.0), "a connection that timed out is never used again")
        #expect(pool.openConnectionCount == 1)
    }

    @Test("a ledger on a frozen server fails a read with a transient storage failure that says the database did not answer, and reads again once it answers")
    func ledgerOnAFrozenServer() throws {
        let server = try FreezablePostgresServer()
        let ledger = Ledger(storage: try PostgresLedgerStorage(url: server.url, connections: 1, timeouts: Self.timeouts))
        try ledger.registerCustomer(id: "ana")

        try server.freeze()
        let thrown = #expect(throws: LedgerError.self) { try ledger.customer(id: "ana") }
        try server.thaw()

        guard case .storage(let failure) = thrown else {
            Issue.record("not a storage failure: \(thrown.map(String.init(describing:)) ?? "nothing thrown")")
            return
        }
        #expect(failure.isTransient)
        #expect(failure.message.contains("the database did not answer within 3 s"), "\(failure.message)")
        #expect(try ledger.customer(id: "ana")?.id == "ana")
    }
}
