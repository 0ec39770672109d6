import Foundation
import PostgresLedger
import StoreCore
import Testing

/// The ledger's rules on every storage: the same cases on SQLite and on PostgreSQL (when
/// `STORERULES_TEST_POSTGRES_URL` names a server), including writers racing on one ledger and
/// deliveries in any order.
@Suite struct LedgerBackendTests {
    typealias Payloads = LedgerPayloads

    private func ingest(_ payload: JWSTransactionDecodedPayload, into ledger: Ledger, customer: String = "ana") throws -> TransactionIngestResult {
        try ledger.ingest(transaction: payload, jwsRepresentation: Payloads.jws(payload), customerID: customer, decide: Payloads.grants)
    }

    @Test("a transaction delivered twice is stored once and granted once", arguments: LedgerBackend.available)
    func grantsOnce(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let box = Payloads.transaction(id: "1000", quantity: 2)
        let first = try ingest(box, into: ledger)
        #expect(first.storage == .inserted)
        #expect(first.outcome == .granted([Grant(item: "pellet", amount: 10)]))
        let again = try ingest(box, into: ledger)
        #expect(again.storage == .unchanged)
        #expect(again.outcome == .alreadyFinished)
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 10])
        #expect(try ledger.versions(ofTransaction: "1000").count == 1)
        #expect(try ledger.checkInvariants().isEmpty)
    }

    @Test("signed data as long as an App Store JWS with its chain is stored, versioned and deduplicated",
          arguments: LedgerBackend.available)
    func longSignedDataIsStored(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let box = Payloads.transaction(id: "1100")
        let chain = String(repeating: "MIIBzDCCAXGgAwIBAgIBATAKBggqhkjOPQQDAjBI", count: 200)
        let jws = Payloads.jws(box) + chain
        for _ in 0..<2 {
            _ = try ledger.ingest(transaction: box, jwsRepresentation: jws, customerID: "ana", decide: Payloads.grants)
        }
        #expect(try ledger.versions(ofTransaction: "1100").map(\.jwsRepresentation) == [jws])
        #expect(try ledger.transaction(id: "1100")?.jwsRepresentation == jws)
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 5])
    }

    @Test("a customer's state read without signed data is the same state, every JWS left empty", arguments: LedgerBackend.available)
    func stateWithoutSignedData(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        for id in ["1200", "1201", "1202"] { _ = try ingest(Payloads.transaction(id: id), into: ledger) }
        _ = try ingest(Payloads.transaction(id: "1203"), into: ledger, customer: "bo")
        let full = try ledger.customerState(customerID: "ana")
        let light = try ledger.customerState(customerID: "ana", signedData: false)
        #expect(full.transactions.allSatisfy { !$0.jwsRepresentation.isEmpty })
        #expect(light.transactions.allSatisfy { $0.jwsRepresentation.isEmpty })
        #expect(light.transactions.map(\.id) == full.transactions.map(\.id))
        var stripped = full.transactions
        for index in stripped.indices { stripped[index].jwsRepresentation = "" }
        #expect(light.transactions == stripped)
        #expect(light.balances == full.balances)
    }

    @Test("a failing decision leaves the transaction unfinished, and a retry grants it once", arguments: LedgerBackend.available)
    func failedDecisionIsRetried(on backend: LedgerBackend) throws {
        struct PolicyDown: Error {}
        let ledger = try backend.freshLedger()
        let box = Payloads.transaction(id: "2000")
        let failed = try ledger.ingest(transaction: box, jwsRepresentation: Payloads.jws(box), customerID: "ana") { _ in throw PolicyDown() }
        guard case .unfinished(.decisionFailed) = failed.outcome else {
            Issue.record("expected an unfinished transaction, got \(failed.outcome)")
            return
        }
        #expect(try ledger.unfinishedTransactions().map(\.id) == ["2000"])
        let retried = try ledger.retryUnfinished(decide: Payloads.grants)
        #expect(retried.map(\.outcome) == [.granted([Grant(item: "pellet", amount: 5)])])
        #expect(try ledger.retryUnfinished(decide: Payloads.grants).isEmpty)
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 5])
    }

    @Test("a refund reverses the grants, and a withdrawn refund restores them", arguments: LedgerBackend.available)
    func refundsReverseAndRestore(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        _ = try ingest(Payloads.transaction(id: "3000", quantity: 3), into: ledger)
        let refunded = try ingest(Payloads.transaction(id: "3000", quantity: 3, signedAt: 10, revokedAt: 10), into: ledger)
        #expect(refunded.outcome == .revoked(reversed: [Grant(item: "pellet", amount: 15)]))
        #expect(try ledger.balances(customerID: "ana") == [:], "an item at zero reads as never granted")
        let stale = try ingest(Payloads.transaction(id: "3000", quantity: 3, signedAt: 5), into: ledger)
        #expect(stale.storage == .superseded)
        let withdrawn = try ingest(Payloads.transaction(id: "3000", quantity: 3, signedAt: 20), into: ledger)
        #expect(withdrawn.outcome == .revocationWithdrawn(restored: [Grant(item: "pellet", amount: 15)]))
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 15])
        #expect(try ledger.checkInvariants().isEmpty)
    }

    @Test("a transaction changing what never changes is refused and changes nothing", arguments: LedgerBackend.available)
    func conflictingVersionIsRefused(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        _ = try ingest(Payloads.transaction(id: "4000"), into: ledger)
        #expect(throws: LedgerError.self) { try ingest(Payloads.transaction(id: "4000", quantity: 9, signedAt: 1), into: ledger) }
        #expect(throws: LedgerError.self) { try ingest(Payloads.transaction(id: "4000", signedAt: 1), into: ledger, customer: "bo") }
        #expect(try ledger.versions(ofTransaction: "4000").count == 1)
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 5])
    }

    @Test("a notification is processed once by its UUID, and customers resolve by token", arguments: LedgerBackend.available)
    func notificationsOnce(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        try ledger.registerCustomer(id: "ana", appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        let box = Payloads.transaction(id: "5000", appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        let delivery = Payloads.Delivery(uuid: "n-1", customerID: "ana", transaction: box, renewalInfo: nil)
        let first = try ledger.ingest(notification: delivery.notification, transaction: box, renewalInfo: nil, decide: Payloads.grants)
        guard case .processed(let result?, nil) = first else {
            Issue.record("expected a processed notification, got \(first)")
            return
        }
        #expect(result.transaction.customerID == "ana")
        #expect(try ledger.ingest(notification: delivery.notification, transaction: box, renewalInfo: nil, decide: Payloads.grants)
                == .alreadyProcessed)
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 5])
    }

    @Test("a notification for a customer not known yet is kept and processed once, when the customer registers",
          arguments: LedgerBackend.available)
    func pendingNotificationsAreKept(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let token = "3b0e2a71-0000-4000-8000-000000007000"
        let box = Payloads.transaction(id: "7000", appAccountToken: token)
        let delivery = Payloads.Delivery(uuid: "n-7000", customerID: "unused", transaction: box, renewalInfo: nil)
        for _ in 0..<2 {
            guard case .pending = try ledger.ingest(notification: delivery.notification, transaction: box, renewalInfo: nil,
                                                     decide: Payloads.grants) else {
                Issue.record("expected the notification kept")
                return
            }
        }
        #expect(try ledger.pendingNotifications().map(\.uuid) == ["n-7000"])
        try ledger.registerCustomer(id: "ana", appAccountToken: token)
        let resolved = try ledger.resolvePendingNotifications(decide: Payloads.grants)
        #expect(resolved.count == 1)
        #expect(try ledger.resolvePendingNotifications(decide: Payloads.grants).isEmpty)
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 5])
        #expect(try ledger.isNotificationProcessed("n-7000"))
    }

    @Test("an older renewal info never replaces a newer one, even written straight through the storage",
          arguments: LedgerBackend.available)
    func olderRenewalInfoNeverWins(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let newer = Payloads.renewalInfo(originalID: "8000", productID: "pass.individual", signedAt: 20, autoRenew: .off)
        let older = Payloads.renewalInfo(originalID: "8000", productID: "pass.individual", signedAt: 10, autoRenew: .on)
        _ = try ledger.ingest(renewalInfo: newer, jwsRepresentation: Payloads.jws(newer))
        guard case .kept = try ledger.ingest(renewalInfo: older, jwsRepresentation: Payloads.jws(older)) else {
            Issue.record("expected the older renewal info kept out")
            return
        }
        let stale = try #require(try ledger.renewalInfo(originalTransactionID: "8000"))
        var olderRecord = stale
        olderRecord.signedDate = Payloads.date(10)
        olderRecord.autoRenewStatus = .on
        #expect(try ledger.storage.write { try $0.upsertRenewalInfo(olderRecord, storedDate: 0) } == false)
        #expect(try ledger.renewalInfo(originalTransactionID: "8000")?.autoRenewStatus == .off)
    }

    @Test("a kept notification that cannot be processed stays kept without holding up the others",
          arguments: LedgerBackend.available)
    func poisonedPendingNotificationDoesNotBlock(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let early = Payloads.transaction(id: "9100", quantity: 1)
        let poisoned = Payloads.Delivery(uuid: "n-9100", customerID: "unused", transaction: early, renewalInfo: nil)
        let token = "5d6e7f80-0000-4000-8000-000000009200"
        let good = Payloads.transaction(id: "9200", appAccountToken: token)
        let fine = Payloads.Delivery(uuid: "n-9200", customerID: "unused", transaction: good, renewalInfo: nil)
        for delivery in [poisoned, fine] {
            _ = try ledger.ingest(notification: delivery.notification, transaction: delivery.transaction, renewalInfo: nil,
                                  decide: Payloads.grants)
        }
        _ = try ingest(Payloads.transaction(id: "9100", quantity: 2), into: ledger, customer: "bo")
        try ledger.registerCustomer(id: "ana", appAccountToken: token)
        let resolved = try ledger.resolvePendingNotifications(decide: Payloads.grants)
        #expect(resolved.count == 1)
        #expect(try ledger.pendingNotifications().map(\.uuid) == ["n-9100"])
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 5])
    }

    @Test("a notification whose transaction lacks what the ledger needs is refused, not kept", arguments: LedgerBackend.available)
    func incompleteNotificationIsNotKept(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        var incomplete = Payloads.transaction(id: "9300")
        incomplete.quantity = nil
        let delivery = Payloads.Delivery(uuid: "n-9300", customerID: "unused", transaction: incomplete, renewalInfo: nil)
        #expect(throws: LedgerError.missingField(payload: "transaction", field: "quantity")) {
            try ledger.ingest(notification: delivery.notification, transaction: incomplete, renewalInfo: nil, decide: Payloads.grants)
        }
        #expect(try ledger.pendingNotifications().isEmpty)
    }

    @Test("eight writers on separate connections delivering the same transactions grant each exactly once",
          arguments: LedgerBackend.available)
    func racingWritersGrantOnce(on backend: LedgerBackend) throws {
        let location = try backend.freshLocation()
        // Eight ledgers, each its own connection (or pool), written by eight threads started together.
        let ledgers = try (0..<8).map { _ in try location.open() }
        let boxes = (0..<60).map { Payloads.transaction(id: "6\(String(format: "%04d", $0))", quantity: Int32(1 + $0 % 3)) }
        let failures = FailureBox()
        let barrier = ThreadBarrier(parties: ledgers.count)
        try runOnThreads(ledgers.count) { writer in
            let ledger = ledgers[writer]
            try barrier.arriveAndWait()
            for box in writer % 2 == 0 ? boxes : boxes.reversed() {
                do {
                    _ = try ingest(box, into: ledger, customer: "customer-\(Int(box.transactionId!.suffix(4))! % 5)")
                } catch {
                    failures.record(error)
                }
            }
        }
        #expect(failures.errors.isEmpty, "\(failures.errors)")
        let ledger = ledgers[0]
        for customer in 0..<5 {
            let expected = boxes.enumerated().filter { $0.offset % 5 == customer }.reduce(0) { $0 + 5 * Int($1.element.quantity!) }
            #expect(try ledger.balances(customerID: "customer-\(customer)")["pellet"] == expected)
        }
        for box in boxes {
            #expect(try ledger.grants(ofTransaction: box.transactionId!).count == 1)
        }
        #expect(try ledger.checkInvariants().isEmpty)
    }

    @Test("a scripted year delivered shuffled and duplicated leaves the same entitlements, statuses and balances as in order",
          arguments: LedgerBackend.available)
    func deliveryOrderDoesNotMatter(on backend: LedgerBackend) throws {
        let year = Payloads.scriptedYear(customers: 4)
        let ordered = try backend.freshLedger()
        try deliver(year, to: ordered)
        for customer in 0..<4 {
            // Written out by hand from the script: the last month's renewal running with auto-renew off, and
            // boxes of 1, 2, 1 and 2 bought in months 0, 3, 6 and 9, five pellets each, month 6's refunded.
            #expect(try snapshot(of: "customer-\(customer)", in: ordered) == Snapshot(
                entitlements: ["pass.individual"], statuses: ["6F3A93AB:9\(customer)0012:subscribed"],
                balances: ["pellet": 25], autoRenew: ["false"]), "customer-\(customer) in order")
        }
        var generator = SeededGenerator(seed: 7)
        for round in 0..<2 {
            let shuffled = try backend.freshLedger()
            try deliver((year + year.prefix(round * 20 + 10)).shuffled(using: &generator), to: shuffled)
            for customer in 0..<4 {
                #expect(try snapshot(of: "customer-\(customer)", in: shuffled) == snapshot(of: "customer-\(customer)", in: ordered))
            }
            #expect(try shuffled.checkInvariants().isEmpty)
        }
    }

    private func deliver(_ deliveries: [Payloads.Delivery], to ledger: Ledger) throws {
        for delivery in deliveries {
            _ = try ledger.ingest(notification: delivery.notification, transaction: delivery.transaction,
                                  renewalInfo: delivery.renewalInfo, customerID: delivery.customerID, decide: Payloads.grants)
        }
    }

    /// What a customer is entitled to and holds at the end of the year.
    private struct Snapshot: Equatable {
        var entitlements: [String]
        var statuses: [String]
        var balances: [String: Int]
        var autoRenew: [String]
    }

    private func snapshot(of customerID: String, in ledger: Ledger) throws -> Snapshot {
        let end = Payloads.date(360 * Payloads.day - Payloads.day)
        let state = try ledger.customerState(customerID: customerID, at: end)
        return Snapshot(
            entitlements: state.entitledProductIDs,
            statuses: state.subscriptionStatuses.sorted { $0.key < $1.key }.flatMap { group, statuses in
                statuses.map { "\(group):\($0.transaction.id):\($0.state)" }
            },
            balances: state.balances,
            autoRenew: state.subscriptionStatuses.values.flatMap { $0.map { "\($0.willAutoRenew)" } })
    }
}

/// Errors collected from several threads.
final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var errors: [String] = []

    func record(_ error: any Error) {
        lock.lock()
        defer { lock.unlock() }
        errors.append(String(describing: error))
    }
}

/// A repeatable source of shuffles.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
