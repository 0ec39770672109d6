import Foundation
import StoreCore
import Synchronization
import Testing

/// The outbox on every storage: the events a change makes are written with it, numbered per
/// customer, reported once whoever brings the change, and handed out for delivery one per
/// customer at a time.
@Suite struct LedgerOutgoingEventTests {
    typealias Payloads = LedgerPayloads

    /// A clock a test moves by hand.
    final class TestClock: Sendable {
        private let now = Mutex(Payloads.date(0))
        var date: Date { now.withLock { $0 } }
        func set(_ offset: Int64) { now.withLock { $0 = Payloads.date(offset) } }
    }

    private func recordingLedger(_ backend: LedgerBackend, clock: TestClock) throws -> Ledger {
        try backend.freshLedger().recordingOutgoingEvents(
            OutgoingEventRecording(clock: { clock.date }, policyVersion: { "v7" }))
    }

    private func ingest(_ payload: JWSTransactionDecodedPayload, customer: String = "ana", into ledger: Ledger) throws {
        _ = try ledger.ingest(transaction: payload, jwsRepresentation: Payloads.jws(payload), customerID: customer,
                              decide: Payloads.grants)
    }

    /// The customer's events, oldest first.
    private func events(of customer: String, in ledger: Ledger) throws -> [OutgoingEvent] {
        try ledger.outgoingEvents(OutgoingEventQuery(customerID: customer, limit: 1000)).sorted { $0.sequence < $1.sequence }
    }

    private func body(of event: OutgoingEvent) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(event.body.utf8)) as? [String: Any])
    }

    private func subscription(_ id: String, expiresAt: Int64, purchasedAt: Int64, original: String = "s1") -> JWSTransactionDecodedPayload {
        Payloads.transaction(id: id, originalID: original, productID: "pass.monthly", type: .autoRenewableSubscription,
                             purchasedAt: purchasedAt, expiresAt: expiresAt, signedAt: purchasedAt)
    }

    @Test("a subscription's life is reported as it happens: started, renewed once however often delivered, renewal turned off, expired by the clock",
          arguments: LedgerBackend.available)
    func subscriptionLife(on backend: LedgerBackend) throws {
        let clock = TestClock()
        let ledger = try recordingLedger(backend, clock: clock)
        let day = Payloads.day
        clock.set(day / 2)
        try ingest(subscription("s1", expiresAt: 30 * day, purchasedAt: 0), into: ledger)
        clock.set(30 * day + 1000)
        let renewal = subscription("s2", expiresAt: 60 * day, purchasedAt: 30 * day)
        try ingest(renewal, into: ledger)
        try ingest(renewal, into: ledger)
        let notification = Payloads.Delivery(uuid: "n-1", customerID: "ana", transaction: renewal, renewalInfo: nil).notification
        _ = try ledger.ingest(notification: notification, transaction: renewal, renewalInfo: nil, decide: Payloads.grants)
        clock.set(40 * day)
        let off = Payloads.renewalInfo(originalID: "s1", productID: "pass.monthly", signedAt: 40 * day, autoRenew: .off)
        _ = try ledger.ingest(renewalInfo: off, jwsRepresentation: Payloads.jws(off))
        #expect(try ledger.reviewOutgoingEventStates() == 0, "nothing the clock changes before the period ends")
        clock.set(60 * day + 1)
        #expect(try ledger.reviewOutgoingEventStates() == 1)
        #expect(try ledger.reviewOutgoingEventStates() == 0, "a state reviewed is not reviewed again")

        let events = try events(of: "ana", in: ledger)
        #expect(events.map(\.type) == [
            .subscriptionStarted, .entitlementsChanged, .subscriptionRenewed, .subscriptionRenewalDisabled,
            .subscriptionExpired, .entitlementsChanged,
        ])
        #expect(events.map(\.sequence) == Array(1...Int64(events.count)))
        #expect(Set(events.map(\.id)).count == events.count)
        #expect(events.allSatisfy { $0.state == .pending && $0.attempts == 0 })
        let expired = try body(of: events[4])
        #expect(expired["type"] as? String == "subscription.expired")
        let data = try #require(expired["data"] as? [String: Any])
        #expect(data["id"] as? String == events[4].id)
        #expect(data["sequence"] as? Int == 5)
        #expect(data["policy_version"] as? String == "v7")
        #expect((data["cause"] as? [String: Any])?["source"] as? String == "clock")
        let state = try #require(data["state"] as? [String: Any])
        #expect(state["entitlements"] as? [String] == [])
        let renewed = try #require(try body(of: events[2])["data"] as? [String: Any])
        #expect((renewed["subscription"] as? [String: Any])?["transaction_id"] as? String == "s2")
        #expect((renewed["transaction"] as? [String: Any])?["transaction_id"] as? String == "s2")
    }

    @Test("a purchase is reported with its grants, and a refund with the grants it reversed", arguments: LedgerBackend.available)
    func purchaseAndRefund(on backend: LedgerBackend) throws {
        let clock = TestClock()
        let ledger = try recordingLedger(backend, clock: clock)
        try ingest(Payloads.transaction(id: "c1", quantity: 2), into: ledger)
        try ingest(Payloads.transaction(id: "c1", quantity: 2, signedAt: 10, revokedAt: 10), into: ledger)
        let events = try events(of: "ana", in: ledger)
        #expect(events.map(\.type) == [.purchaseGranted, .transactionRefunded])
        struct Body: Decodable {
            struct Data: Decodable {
                struct State: Decodable { let balances: [String: Int] }
                let grants: [Grant]
                let state: State
            }
            let data: Data
        }
        let granted = try JSONDecoder().decode(Body.self, from: Data(events[0].body.utf8)).data
        #expect(granted.grants == [Grant(item: "pellet", amount: 10)] && granted.state.balances == ["pellet": 10])
        let refunded = try JSONDecoder().decode(Body.self, from: Data(events[1].body.utf8)).data
        #expect(refunded.grants == [Grant(item: "pellet", amount: 10)], "the grants the refund reversed")
        #expect(refunded.state.balances.isEmpty)
    }

    @Test("a refund request is reported answered once, though a second attempt that outlived its hold ends it too",
          arguments: LedgerBackend.available)
    func refundRequestAnsweredOnce(on backend: LedgerBackend) throws {
        let ledger = try recordingLedger(backend, clock: TestClock())
        try ingest(Payloads.transaction(id: "c1"), into: ledger)
        try ledger.recordConsumptionRequest(ConsumptionRequestRecord(
            notificationUUID: "n-1", transactionID: "c1", originalTransactionID: "c1", transactionJWS: "a.b.c", reason: nil,
            receivedDate: 1_000, deadlineDate: 1_000 + ConsumptionRequestRecord.answerWindowMilliseconds))
        let first = try #require(try ledger.claimConsumptionRequest(notificationUUID: "n-1", at: 1_000, heldUntil: 61_000))
        let second = try #require(try ledger.claimConsumptionRequest(notificationUUID: "n-1", at: 61_000, heldUntil: 121_000))
        var answered = first
        answered.state = .answered
        answered.attempts = 1
        var refused = second
        refused.state = .refused
        refused.attempts = 1
        #expect(try ledger.updateConsumptionRequest(answered))
        #expect(try !ledger.updateConsumptionRequest(refused), "the request had ended")
        #expect(try ledger.consumptionRequests().first?.state == .answered)
        #expect(try events(of: "ana", in: ledger).map(\.type) == [.purchaseGranted, .refundRequestAnswered])
    }

    @Test("pruning deletes the delivered and skipped events written before a time, keeps pending and failed ones, and numbering goes on",
          arguments: LedgerBackend.available)
    func prune(on backend: LedgerBackend) throws {
        let ledger = try recordingLedger(backend, clock: TestClock())
        for (index, customer) in ["ana", "bo", "cy", "di"].enumerated() {
            try ingest(Payloads.transaction(id: "c\(index)"), customer: customer, into: ledger)
        }
        let now = Date().millisecondsSince1970 + 1_000
        let taken = try ledger.claimOutgoingEvents(at: now, heldUntil: now + 60_000, limit: 10)
        let byCustomer = Dictionary(uniqueKeysWithValues: taken.map { ($0.customerID, $0.id) })
        try ledger.recordOutgoingEventAttempts([
            (try #require(byCustomer["ana"]), .delivered(at: now)), (try #require(byCustomer["bo"]), .skipped),
            (try #require(byCustomer["cy"]), .failed(error: "given up")),
        ], heldUntil: now + 60_000)
        #expect(try ledger.pruneOutgoingEvents(writtenBefore: 0) == 0, "nothing was written before then")
        #expect(try ledger.pruneOutgoingEvents(writtenBefore: now) == 2)
        #expect(try ledger.outgoingEvents(OutgoingEventQuery()).map(\.customerID).sorted() == ["cy", "di"])
        try ingest(Payloads.transaction(id: "c9"), customer: "ana", into: ledger)
        #expect(try events(of: "ana", in: ledger).map(\.sequence) == [2], "ana's next event follows the pruned one")
    }

    @Test("a ledger that records no events writes none", arguments: LedgerBackend.available)
    func noRecordingNoEvents(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        try ingest(Payloads.transaction(id: "c1"), into: ledger)
        #expect(try ledger.outgoingEvents(OutgoingEventQuery()).isEmpty)
    }

    @Test("a change the ledger refuses writes no event", arguments: LedgerBackend.available)
    func refusedChangeWritesNothing(on backend: LedgerBackend) throws {
        let ledger = try recordingLedger(backend, clock: TestClock())
        try ingest(Payloads.transaction(id: "c1"), customer: "ana", into: ledger)
        #expect(throws: LedgerError.self) { try ingest(Payloads.transaction(id: "c1"), customer: "bo", into: ledger) }
        #expect(try events(of: "bo", in: ledger).isEmpty)
        #expect(try events(of: "ana", in: ledger).count == 1)
    }

    @Test("delivery takes one event per customer at a time, in order; a failed event lets the next go", arguments: LedgerBackend.available)
    func deliveryOrder(on backend: LedgerBackend) throws {
        let ledger = try recordingLedger(backend, clock: TestClock())
        try ingest(Payloads.transaction(id: "a1"), customer: "ana", into: ledger)
        try ingest(Payloads.transaction(id: "a2"), customer: "ana", into: ledger)
        try ingest(Payloads.transaction(id: "b1"), customer: "bo", into: ledger)
        let now = Date().millisecondsSince1970
        let first = try ledger.claimOutgoingEvents(at: now, heldUntil: now + 30_000, limit: 10)
        #expect(Set(first.map { "\($0.customerID)#\($0.sequence)" }) == ["ana#1", "bo#1"])
        #expect(try ledger.claimOutgoingEvents(at: now, heldUntil: now + 30_000, limit: 10).isEmpty, "held events are not taken twice")
        let ana1 = try #require(first.first { $0.customerID == "ana" })
        try ledger.recordOutgoingEventAttempts([(ana1.id, .retry(error: "HTTP 500", at: now + 5_000))], heldUntil: now + 30_000)
        #expect(try ledger.claimOutgoingEvents(at: now, heldUntil: now + 30_000, limit: 10).isEmpty,
                "a customer's next event waits while the earlier one is retried")
        let again = try ledger.claimOutgoingEvents(at: now + 5_000, heldUntil: now + 35_000, limit: 10)
        #expect(again.map(\.id) == [ana1.id])
        try ledger.recordOutgoingEventAttempts([(ana1.id, .failed(error: "HTTP 500"))], heldUntil: now + 35_000)
        let next = try ledger.claimOutgoingEvents(at: now + 5_000, heldUntil: now + 35_000, limit: 10)
        #expect(next.map { "\($0.customerID)#\($0.sequence)" } == ["ana#2"])
        try ledger.recordOutgoingEventAttempts([(next[0].id, .delivered(at: now + 6_000))], heldUntil: now + 35_000)
        let failed = try ledger.outgoingEvents(OutgoingEventQuery(state: .failed))
        #expect(failed.map(\.id) == [ana1.id] && failed[0].attempts == 2 && failed[0].lastError == "HTTP 500")
        #expect(try ledger.outgoingEventBacklog(at: now).failed == 1)
        #expect(try ledger.outgoingEventBacklog(at: now + 1_000).late == 0, "written by the host's clock, not the recording's")
        let aMinuteOn = try ledger.outgoingEventBacklog(at: now + 61_000)
        #expect(aMinuteOn.late == 1 && aMinuteOn.pending == 1, "bo's event, written over a minute before, is late")
        #expect(try ledger.requeueOutgoingEvents(OutgoingEventQuery(state: .failed), at: now + 7_000) == 1)
        let retried = try ledger.claimOutgoingEvents(at: now + 7_000, heldUntil: now + 37_000, limit: 10)
        #expect(retried.map(\.id) == [ana1.id], "a retried event keeps its id and body")
        #expect(retried[0].body == failed[0].body)
    }

    @Test("writers racing on one customer number its events once each, with no gap", arguments: LedgerBackend.available)
    func concurrentNumbering(on backend: LedgerBackend) throws {
        let ledger = try recordingLedger(backend, clock: TestClock())
        try runOnThreads(8) { index in
            for round in 0..<5 {
                try ingest(Payloads.transaction(id: "t\(index)-\(round)"), customer: "ana", into: ledger)
            }
        }
        let events = try events(of: "ana", in: ledger)
        #expect(events.count == 40)
        #expect(events.map(\.sequence) == Array(1...40))
    }

    @Test("a copy keeps the outbox, each event with its id, body and state, and numbers the customer's next event after them",
          arguments: LedgerBackend.available)
    func copyKeepsTheOutbox(on backend: LedgerBackend) throws {
        let clock = TestClock()
        let source = try recordingLedger(backend, clock: clock)
        try ingest(Payloads.transaction(id: "c1"), into: source)
        try ingest(Payloads.transaction(id: "c2"), into: source)
        let now = Date().millisecondsSince1970
        let taken = try source.claimOutgoingEvents(at: now, heldUntil: now + 1_000, limit: 1)
        try source.recordOutgoingEventAttempts(taken.map { (id: $0.id, attempt: .delivered(at: now)) }, heldUntil: now + 1_000)
        let target = try LedgerBackend.sqlite.freshLedger().recordingOutgoingEvents(
            OutgoingEventRecording(clock: { clock.date }, policyVersion: { "v7" }))
        let summary = try source.copy(to: target)
        #expect(summary.outgoingEvents == 2)
        #expect(try events(of: "ana", in: target) == events(of: "ana", in: source))
        try ingest(Payloads.transaction(id: "c3"), into: target)
        #expect(try events(of: "ana", in: target).map(\.sequence) == [1, 2, 3])
    }
}
