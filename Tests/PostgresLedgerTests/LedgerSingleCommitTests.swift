import Foundation
import PostgresLedger
import StoreCore
import Synchronization
import Testing

/// An ingest is one storage transaction: the decision runs inside the write that stores the
/// transaction, reads the ledger through it, and commits with the grants.
@Suite struct LedgerSingleCommitTests {
    typealias Payloads = LedgerPayloads

    @Test("the decision sees its transaction stored, and no other connection sees it before the grants commit",
          arguments: LedgerBackend.available)
    func decisionReadsThroughTheOpenWrite(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        _ = try ledger.ingest(transaction: Payloads.transaction(id: "1"), jwsRepresentation: Payloads.jws(Payloads.transaction(id: "1")),
                              customerID: "ana", decide: Payloads.grants)
        let box = Payloads.transaction(id: "2", quantity: 2)
        let seen = Mutex<(inside: StoredTransaction?, balances: [String: Int], outside: StoredTransaction??)>((nil, [:], nil))
        let result = try ledger.ingest(transaction: box, jwsRepresentation: Payloads.jws(box), customerID: "ana") { transaction in
            let inside = try ledger.transaction(id: "2")
            let balances = try ledger.balances(customerID: "ana")
            let outside = try Self.readOnAnotherThread { try ledger.transaction(id: "2") }
            seen.withLock { $0 = (inside, balances, .some(outside)) }
            return Payloads.grants(transaction)
        }
        let (inside, balances, outside) = seen.withLock { $0 }
        #expect(inside?.grantState == .unfinished(.awaitingGrant))
        #expect(balances == ["pellet": 5], "the decision sees the balances before its own grants")
        #expect(outside == .some(nil), "another connection sees nothing of the write before it commits")
        #expect(result.outcome == .granted([Grant(item: "pellet", amount: 10)]))
        #expect(try ledger.transaction(id: "2")?.grantState == .granted)
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 15])
    }

    @Test("a decision that writes to the ledger joins the ingest's write", arguments: LedgerBackend.available)
    func decisionWritesJoinTheIngest(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let box = Payloads.transaction(id: "3")
        let result = try ledger.ingest(transaction: box, jwsRepresentation: Payloads.jws(box), customerID: "ana") { transaction in
            try ledger.registerCustomer(id: "ana", appAccountToken: "0D5C3F6A-8E1B-4F3A-9C2D-7B6E5A4F3C2B")
            return Payloads.grants(transaction)
        }
        #expect(result.outcome == .granted([Grant(item: "pellet", amount: 5)]))
        #expect(try ledger.customer(id: "ana")?.appAccountToken == "0d5c3f6a-8e1b-4f3a-9c2d-7b6e5a4f3c2b", "stored in canonical form")
    }

    @Test("a conflicting version stores nothing of the notification that carried it, renewal info included; it is kept as a conflict",
          arguments: LedgerBackend.available)
    func failedNotificationStoresNothing(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let pass = Payloads.transaction(id: "10", productID: "pass.monthly", type: .autoRenewableSubscription,
                                        expiresAt: 30 * Payloads.day)
        _ = try ledger.ingest(transaction: pass, jwsRepresentation: Payloads.jws(pass), customerID: "ana", decide: Payloads.grants)
        let conflicting = Payloads.transaction(id: "10", productID: "pass.yearly", type: .autoRenewableSubscription,
                                               expiresAt: 30 * Payloads.day, signedAt: Payloads.day)
        let renewal = Payloads.renewalInfo(originalID: "10", productID: "pass.monthly", signedAt: Payloads.day, autoRenew: .off)
        let delivery = Payloads.Delivery(uuid: "conflict", customerID: "ana", transaction: conflicting, renewalInfo: renewal)
        let result = try ledger.ingest(notification: delivery.notification, transaction: conflicting, renewalInfo: renewal,
                                       decide: Payloads.grants)
        guard case .conflict = result else {
            Issue.record("expected the notification kept as a conflict, got \(result)")
            return
        }
        #expect(try ledger.renewalInfo(originalTransactionID: "10") == nil)
        #expect(try ledger.notificationConflicts().map(\.uuid) == ["conflict"])
        #expect(try ledger.versions(ofTransaction: "10").count == 1)
    }

    @Test("a connection lost while the decision reads is retried as a whole, even when the decision swallowed the failure")
    func lostConnectionDuringTheDecisionIsRetried() throws {
        guard PostgresTestServer.isConfigured else { return }
        let database = try PostgresTestDatabase()
        let ledger = Ledger(storage: try PostgresLedgerStorage(url: database.url))
        let box = Payloads.transaction(id: "20", quantity: 3)
        let calls = Mutex(0)
        let swallowed = Mutex<[String]>([])
        let result = try ledger.ingest(transaction: box, jwsRepresentation: Payloads.jws(box), customerID: "ana") { transaction in
            if calls.withLock({ $0 += 1; return $0 }) == 1 {
                let admin = try database.connect()
                let writers = try admin.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND state = 'idle in transaction'", [.text(database.name)])
                for row in writers { try database.terminate(backend: Int32(try row.decode(Int64.self, column: "pid"))) }
                do {
                    _ = try ledger.balances(customerID: "ana")
                } catch {
                    swallowed.withLock { $0.append(String(describing: error)) }
                }
            }
            return Payloads.grants(transaction)
        }
        #expect(calls.withLock { $0 } == 2, "the write ran again after the lost connection")
        #expect(swallowed.withLock { $0.count } == 1)
        #expect(result.outcome == .granted([Grant(item: "pellet", amount: 15)]))
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 15])
        #expect(try ledger.grants(ofTransaction: "20") == [Grant(item: "pellet", amount: 15)])
        #expect(try ledger.checkInvariants().isEmpty)
    }

    /// What `read` returns when run on a thread of its own.
    private static func readOnAnotherThread<T: Sendable>(_ read: @escaping @Sendable () throws -> T) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        try runOnThreads(1) { _ in
            let result = Result { try read() }
            outcome.withLock { $0 = result }
        }
        return try outcome.withLock { $0 }!.get()
    }
}
