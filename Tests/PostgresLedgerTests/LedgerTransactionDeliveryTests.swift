import Foundation
import StoreCore
import Testing

/// What the ledger delivered of a transaction a refund is asked of — whether and when it granted
/// it, and what, reversed grants marked — and how a grant makes the refund requests waiting for
/// it due, on every storage.
@Suite struct LedgerTransactionDeliveryTests {
    typealias Payloads = LedgerPayloads

    private func ingest(_ payload: JWSTransactionDecodedPayload, into ledger: Ledger,
                        decide: (StoredTransaction) throws -> [Grant] = Payloads.grants) throws -> TransactionIngestResult {
        try ledger.ingest(transaction: payload, jwsRepresentation: Payloads.jws(payload), customerID: "ana", decide: decide)
    }

    @Test("a transaction is not granted until its grant decision is recorded, then granted at that time with its grants",
          arguments: LedgerBackend.available)
    func grantedWithItsDateAndGrants(on backend: LedgerBackend) throws {
        struct PolicyDown: Error {}
        let ledger = try backend.freshLedger()
        #expect(try ledger.delivery(ofTransaction: "5000") == .notStored)
        _ = try ingest(Payloads.transaction(id: "5000", quantity: 2), into: ledger) { _ in throw PolicyDown() }
        let unfinished = try ledger.delivery(ofTransaction: "5000")
        #expect(!unfinished.isGranted && unfinished.mayStillBeGranted)
        #expect(unfinished.grantedDate == nil && unfinished.grants.isEmpty)

        let before = Date().millisecondsSince1970
        _ = try ledger.retryUnfinished(decide: Payloads.grants)
        let after = Date().millisecondsSince1970
        let granted = try ledger.delivery(ofTransaction: "5000")
        #expect(granted.isGranted && !granted.mayStillBeGranted)
        let date = try #require(granted.grantedDate).millisecondsSince1970
        #expect((before...after).contains(date), "granted when the retry recorded it, not when it was stored")
        #expect(granted.grants == [.init(item: "pellet", amount: 10)])
    }

    @Test("a copy keeps what the ledger delivered and when, on either storage", arguments: LedgerBackend.available)
    func copyKeepsTheDelivery(on backend: LedgerBackend) throws {
        let source = try backend.freshLedger()
        _ = try ingest(Payloads.transaction(id: "5400", quantity: 3), into: source)
        _ = try ingest(Payloads.transaction(id: "5401"), into: source)
        _ = try ingest(Payloads.transaction(id: "5401", signedAt: 10, revokedAt: 10), into: source)
        let granted = try source.delivery(ofTransaction: "5400")
        Thread.sleep(forTimeInterval: 0.01)
        let target = try LedgerBackend.sqlite.freshLedger()
        try source.copy(to: target)
        #expect(try target.delivery(ofTransaction: "5400") == granted, "granted when the source granted it, not when it was copied")
        #expect(try target.delivery(ofTransaction: "5401") == source.delivery(ofTransaction: "5401"))
    }

    @Test("a refunded transaction stays granted, its grants listed and marked reversed", arguments: LedgerBackend.available)
    func reversedGrantsAreMarked(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        _ = try ingest(Payloads.transaction(id: "5100"), into: ledger)
        _ = try ingest(Payloads.transaction(id: "5100", signedAt: 10, revokedAt: 10), into: ledger)
        let refunded = try ledger.delivery(ofTransaction: "5100")
        #expect(refunded.isGranted)
        #expect(refunded.grants == [.init(item: "pellet", amount: 5, isReversed: true)])
    }

    @Test("a transaction revoked before its grant is settled without one", arguments: LedgerBackend.available)
    func revokedBeforeGrantIsSettled(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        _ = try ingest(Payloads.transaction(id: "5200", revokedAt: 0), into: ledger)
        let revoked = try ledger.delivery(ofTransaction: "5200")
        #expect(revoked.grantState == .revokedBeforeGrant)
        #expect(!revoked.isGranted && !revoked.mayStillBeGranted)
    }

    @Test("a grant makes the undecided requests about its transaction due, leaving one an attempt holds",
          arguments: LedgerBackend.available)
    func grantHastensWaitingRequests(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        func request(_ uuid: String, transactionID: String, nextAttempt: Int64, answered: Bool = false) throws {
            var record = ConsumptionRequestRecord(notificationUUID: uuid, transactionID: transactionID, originalTransactionID: transactionID,
                                                  transactionJWS: "a.b.c", reason: nil, receivedDate: 1_000,
                                                  deadlineDate: 1_000 + ConsumptionRequestRecord.answerWindowMilliseconds)
            try ledger.recordConsumptionRequest(record)
            record.nextAttemptDate = nextAttempt
            if answered {
                record.answer = try ConsumptionAnswer(customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false)
            }
            try ledger.updateConsumptionRequest(record)
        }
        try request("waiting", transactionID: "5300", nextAttempt: 400_000)
        try request("held", transactionID: "5300", nextAttempt: 60_000)
        try request("decided", transactionID: "5300", nextAttempt: 400_000, answered: true)
        try request("other", transactionID: "5301", nextAttempt: 400_000)
        #expect(try ledger.hastenConsumptionRequests(transactionIDs: ["5300"], at: 10_000, heldBefore: 70_000) == 1)
        #expect(try ledger.dueConsumptionRequests(at: 10_000).map(\.notificationUUID) == ["waiting"])
        #expect(try ledger.hastenConsumptionRequests(transactionIDs: [String](), at: 10_000, heldBefore: 70_000) == 0)
    }
}
