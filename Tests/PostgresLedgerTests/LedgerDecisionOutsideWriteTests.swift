import Foundation
import PostgresLedger
import StoreCore
import Synchronization
import Testing
import TestPrerequisites

/// A grant is decided with nothing of the storage held — no transaction, lock or pooled
/// connection — and recorded in one write only if what it decided on is still so.
@Suite struct LedgerDecisionOutsideWriteTests {
    typealias Payloads = LedgerPayloads

    @Test("while customer A's grant hook is blocked, customer B's ingest, notification and reads complete; then A is granted once",
          arguments: LedgerBackend.available)
    func blockedDecisionHoldsUpNoOneElse(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finishedA = DispatchSemaphore(value: 0)
        let calls = Mutex(0)
        let resultA = Mutex<Result<TransactionIngestResult, any Error>?>(nil)
        let boxA = Payloads.transaction(id: "A1", quantity: 2)
        Thread {
            let result = Result {
                try ledger.ingest(transaction: boxA, jwsRepresentation: Payloads.jws(boxA), customerID: "ana") { transaction in
                    calls.withLock { $0 += 1 }
                    entered.signal()
                    release.wait()
                    return Payloads.grants(transaction)
                }
            }
            resultA.withLock { $0 = result }
            finishedA.signal()
        }.start()
        try #require(entered.wait(timeout: .now() + 30) == .success, "A's grant hook never ran")

        // B's work on a thread of its own, so that a B held up by A fails the test instead of hanging it.
        let finishedB = DispatchSemaphore(value: 0)
        let seenByB = Mutex<Result<(granted: TransactionIngestResult, notified: NotificationIngestResult, stateA: CustomerState,
                                    balancesB: [String: Int]), any Error>?>(nil)
        Thread {
            let result = Result {
                let boxB = Payloads.transaction(id: "B1")
                let granted = try ledger.ingest(transaction: boxB, jwsRepresentation: Payloads.jws(boxB), customerID: "bo",
                                                decide: Payloads.grants)
                let renewal = Payloads.Delivery(uuid: "n-B2", customerID: "bo", transaction: Payloads.transaction(id: "B2"), renewalInfo: nil)
                let notified = try ledger.ingest(notification: renewal.notification, transaction: renewal.transaction, renewalInfo: nil,
                                                 customerID: "bo", decide: Payloads.grants)
                return (granted: granted, notified: notified, stateA: try ledger.customerState(customerID: "ana"),
                        balancesB: try ledger.balances(customerID: "bo"))
            }
            seenByB.withLock { $0 = result }
            finishedB.signal()
        }.start()
        let bFinished = finishedB.wait(timeout: .now() + 30) == .success
        let aStillDeciding = resultA.withLock { $0 == nil }
        release.signal()
        try #require(finishedA.wait(timeout: .now() + 60) == .success, "A's ingest never returned")
        #expect(bFinished, "B's ingest, notification and reads waited for A's decision")
        #expect(aStillDeciding, "A's hook was still blocked while B completed")
        if bFinished {
            let seen = try #require(try seenByB.withLock { $0 }?.get())
            #expect(seen.granted.outcome == .granted([Grant(item: "pellet", amount: 5)]))
            guard case .processed(let transaction?, nil) = seen.notified else {
                Issue.record("expected B's notification processed, got \(seen.notified)")
                return
            }
            #expect(transaction.outcome == .granted([Grant(item: "pellet", amount: 5)]))
            #expect(seen.stateA.transactions.isEmpty, "nothing of A is stored before its decision is recorded")
            #expect(seen.balancesB == ["pellet": 10])
        }
        let outcomeA = try #require(try resultA.withLock { $0 }?.get())
        #expect(outcomeA.outcome == .granted([Grant(item: "pellet", amount: 10)]))
        #expect(calls.withLock { $0 } == 1)
        #expect(try ledger.grants(ofTransaction: "A1") == [Grant(item: "pellet", amount: 10)])
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 10])
        #expect(try ledger.checkInvariants().isEmpty)
    }

    @Test("the decision sees its transaction as stored, with its customer known, while no other thread sees it before the grants commit",
          arguments: LedgerBackend.available)
    func decisionSeesTheReceivedTransaction(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        _ = try ledger.ingest(transaction: Payloads.transaction(id: "1"), jwsRepresentation: Payloads.jws(Payloads.transaction(id: "1")),
                              customerID: "ana", decide: Payloads.grants)
        let box = Payloads.transaction(id: "2", quantity: 2)
        let seen = Mutex<(inside: StoredTransaction?, state: CustomerState?, balances: [String: Int], outside: StoredTransaction??)>((nil, nil, [:], nil))
        let result = try ledger.ingest(transaction: box, jwsRepresentation: Payloads.jws(box), customerID: "ana") { transaction in
            let inside = try ledger.transaction(id: "2")
            let state = try ledger.customerState(customerID: "ana", signedData: false)
            let balances = try ledger.balances(customerID: "ana")
            let outside = try Self.readOnAnotherThread { try ledger.transaction(id: "2") }
            seen.withLock { $0 = (inside, state, balances, .some(outside)) }
            return Payloads.grants(transaction)
        }
        let (inside, state, balances, outside) = seen.withLock { $0 }
        #expect(inside?.grantState == .unfinished(.awaitingGrant))
        #expect(state?.transactions.map(\.id) == ["1", "2"], "the customer's state includes the transaction decided on")
        #expect(state?.isKnown == true)
        #expect(balances == ["pellet": 5], "the decision sees the balances before its own grants")
        #expect(outside == .some(nil), "another thread sees nothing of the transaction before its write commits")
        #expect(result.outcome == .granted([Grant(item: "pellet", amount: 10)]))
        #expect(try ledger.transaction(id: "2")?.grantState == .granted)
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 15])
    }

    @Test("a new customer's first purchase is decided with the customer known", arguments: LedgerBackend.available)
    func firstPurchaseSeesItsCustomer(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let box = Payloads.transaction(id: "5")
        let known = Mutex<Bool?>(nil)
        _ = try ledger.ingest(transaction: box, jwsRepresentation: Payloads.jws(box), customerID: "cy") { transaction in
            known.withLock { $0 = (try? ledger.customer(id: "cy")) != nil }
            return Payloads.grants(transaction)
        }
        #expect(known.withLock { $0 } == true)
        #expect(try ledger.customer(id: "cy") != nil)
    }

    @Test("a decision about a new subscription sees it in the customer's state, with the renewal info stored before it",
          arguments: LedgerBackend.available)
    func newSubscriptionIsInTheDecisionsState(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let renewal = Payloads.renewalInfo(originalID: "60", productID: "pass.monthly", signedAt: 0, autoRenew: .on)
        _ = try ledger.ingest(renewalInfo: renewal, jwsRepresentation: Payloads.jws(renewal))
        let box = Payloads.transaction(id: "59")
        _ = try ledger.ingest(transaction: box, jwsRepresentation: Payloads.jws(box), customerID: "ana", decide: Payloads.grants)
        let pass = Payloads.transaction(id: "60", productID: "pass.monthly", type: .autoRenewableSubscription, purchasedAt: Payloads.day,
                                        expiresAt: 31 * Payloads.day)
        let seen = Mutex<CustomerState?>(nil)
        _ = try ledger.ingest(transaction: pass, jwsRepresentation: Payloads.jws(pass), customerID: "ana") { transaction in
            let state = try ledger.customerState(customerID: "ana", at: Payloads.date(2 * Payloads.day), signedData: false)
            seen.withLock { $0 = state }
            return []
        }
        let state = try #require(seen.withLock { $0 })
        #expect(state.transactions.map(\.id) == ["59", "60"])
        let status = state.subscriptionStatuses["6F3A93AB"]?.first
        #expect(status?.transaction.id == "60", "the subscription speaks for its group while the decision runs")
        #expect(status?.renewalInfo?.originalTransactionID == "60", "with the renewal info stored before it")
        #expect(try ledger.customerState(customerID: "ana", signedData: false).transactions.map(\.id) == ["59", "60"])
    }

    @Test("a decision may write to the ledger: no write is open while it runs", arguments: LedgerBackend.available)
    func decisionMayWrite(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let box = Payloads.transaction(id: "3")
        let result = try ledger.ingest(transaction: box, jwsRepresentation: Payloads.jws(box), customerID: "ana") { transaction in
            try ledger.registerCustomer(id: "ana", appAccountToken: "0D5C3F6A-8E1B-4F3A-9C2D-7B6E5A4F3C2B")
            let other = Payloads.transaction(id: "4")
            _ = try ledger.ingest(transaction: other, jwsRepresentation: Payloads.jws(other), customerID: "bo", decide: Payloads.grants)
            return Payloads.grants(transaction)
        }
        #expect(result.outcome == .granted([Grant(item: "pellet", amount: 5)]))
        #expect(try ledger.customer(id: "ana")?.appAccountToken == "0d5c3f6a-8e1b-4f3a-9c2d-7b6e5a4f3c2b", "stored in canonical form")
        #expect(try ledger.balances(customerID: "bo") == ["pellet": 5])
    }

    @Test("a transaction that changes while it is decided is decided again on its new version, and granted once",
          arguments: LedgerBackend.available)
    func changedTransactionIsDecidedAgain(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        try Self.storeUnfinished(id: "30", signedAt: 0, in: ledger)
        let seen = Mutex<[Date]>([])
        let results = try ledger.retryUnfinished(customerID: "ana") { transaction in
            let calls = seen.withLock { $0.append(transaction.signedDate); return $0.count }
            if calls == 1 {
                // Another delivery stores a newer version between this decision and its write.
                try Self.readOnAnotherThread { try Self.storeUnfinished(id: "30", signedAt: Payloads.day, in: ledger) }
            }
            return Payloads.grants(transaction)
        }
        #expect(seen.withLock { $0 } == [Payloads.date(0), Payloads.date(Payloads.day)], "decided again on the version stored meanwhile")
        #expect(results.map(\.outcome) == [.granted([Grant(item: "pellet", amount: 5)])])
        #expect(try ledger.grants(ofTransaction: "30") == [Grant(item: "pellet", amount: 5)])
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 5])
    }

    @Test("a transaction that changes under every decision stops after the bound, with a clear error, and stays unfinished",
          arguments: LedgerBackend.available)
    func decisionBoundIsKept(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        try Self.storeUnfinished(id: "40", signedAt: 0, in: ledger)
        let calls = Mutex<Int64>(0)
        #expect(throws: LedgerError.decisionOutpaced(transactionID: "40", attempts: Ledger.maximumDecisionAttempts)) {
            try ledger.retryUnfinished(customerID: "ana") { transaction in
                let call = calls.withLock { $0 += 1; return $0 }
                try Self.readOnAnotherThread { try Self.storeUnfinished(id: "40", signedAt: call * Payloads.day, in: ledger) }
                return Payloads.grants(transaction)
            }
        }
        #expect(calls.withLock { $0 } == Int64(Ledger.maximumDecisionAttempts))
        #expect(try ledger.transaction(id: "40")?.isFinished == false)
        #expect(try ledger.grants(ofTransaction: "40").isEmpty)
        #expect(LedgerError.decisionOutpaced(transactionID: "40", attempts: 4).description.contains("stays unfinished"))
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

    @Test("on PostgreSQL no connection of the ledger is in a transaction while a grant is decided",
          .enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason))
    func decisionHoldsNoPostgresTransaction() throws {
        let database = try PostgresTestDatabase()
        let ledger = Ledger(storage: try PostgresLedgerStorage(url: database.url))
        let earlier = Payloads.transaction(id: "19")
        _ = try ledger.ingest(transaction: earlier, jwsRepresentation: Payloads.jws(earlier), customerID: "ana", decide: Payloads.grants)
        let box = Payloads.transaction(id: "20", quantity: 3)
        let openDuringDecision = Mutex<[String]>([])
        let result = try ledger.ingest(transaction: box, jwsRepresentation: Payloads.jws(box), customerID: "ana") { transaction in
            _ = try ledger.balances(customerID: "ana")
            let admin = try database.connect()
            let open = try admin.execute(
                "SELECT state FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND xact_start IS NOT NULL",
                [.text(database.name)])
            openDuringDecision.withLock { $0 = open.map { (try? $0.decode(String.self, column: "state")) ?? "?" } }
            return Payloads.grants(transaction)
        }
        #expect(openDuringDecision.withLock { $0 } == [], "a ledger connection was in a transaction during the decision")
        #expect(result.outcome == .granted([Grant(item: "pellet", amount: 15)]))
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 20])
    }

    /// Delivers a version of ana's box `id` signed at `signedAt` while the policy cannot decide,
    /// so the transaction is stored, or its newer version taken, and stays unfinished.
    private static func storeUnfinished(id: String, signedAt: Int64, in ledger: Ledger) throws {
        let box = Payloads.transaction(id: id, signedAt: signedAt)
        _ = try ledger.ingest(transaction: box, jwsRepresentation: Payloads.jws(box), customerID: "ana") { _ in throw PolicyDown() }
    }

    /// A policy that cannot decide.
    private struct PolicyDown: Error {}

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
