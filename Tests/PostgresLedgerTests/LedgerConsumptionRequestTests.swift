import Foundation
import StoreCore
import Testing

/// Refund requests kept in the ledger: once per notification, taken by one attempt at a time,
/// their outcome written back, and copied with the ledger — on every storage.
@Suite struct LedgerConsumptionRequestTests {
    static func request(_ uuid: String, received: Int64 = 1_000) -> ConsumptionRequestRecord {
        ConsumptionRequestRecord(notificationUUID: uuid, transactionID: "7100", originalTransactionID: "7100", transactionJWS: "a.b.c",
                                 reason: "LEGAL", receivedDate: received, deadlineDate: received + ConsumptionRequestRecord.answerWindowMilliseconds)
    }

    @Test("a request is kept once however often Apple sends it", arguments: LedgerBackend.available)
    func keptOnce(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        #expect(try ledger.recordConsumptionRequest(Self.request("n-1")))
        #expect(try !ledger.recordConsumptionRequest(Self.request("n-1", received: 5_000)))
        let kept = try ledger.consumptionRequests()
        #expect(kept.map(\.notificationUUID) == ["n-1"])
        #expect(kept.first?.receivedDate == 1_000)
        #expect(kept.first?.state == .pending)
        #expect(kept.first?.reason == "LEGAL")
    }

    @Test("one attempt takes a due request; another finds it taken until the hold ends", arguments: LedgerBackend.available)
    func claimedByOneAttempt(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        try ledger.recordConsumptionRequest(Self.request("n-2"))
        #expect(try ledger.dueConsumptionRequests(at: 999).isEmpty, "not due before it was received")
        #expect(try ledger.dueConsumptionRequests(at: 1_000).map(\.notificationUUID) == ["n-2"])
        let taken = try #require(try ledger.claimConsumptionRequest(notificationUUID: "n-2", at: 1_000, heldUntil: 61_000))
        #expect(taken.nextAttemptDate == 61_000)
        #expect(try ledger.claimConsumptionRequest(notificationUUID: "n-2", at: 2_000, heldUntil: 62_000) == nil)
        #expect(try ledger.dueConsumptionRequests(at: 2_000).isEmpty)
        #expect(try ledger.claimConsumptionRequest(notificationUUID: "n-2", at: 61_000, heldUntil: 121_000) != nil, "a hold that ended frees it")
    }

    @Test("an attempt's outcome is written back, and an answered request is never due again", arguments: LedgerBackend.available)
    func outcomeWrittenBack(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        try ledger.recordConsumptionRequest(Self.request("n-3"))
        var request = try #require(try ledger.claimConsumptionRequest(notificationUUID: "n-3", at: 1_000, heldUntil: 61_000))
        request.answer = try ConsumptionAnswer(customerConsented: true, deliveryStatus: .delivered, consumptionPercentage: 25_000,
                                               refundPreference: .grantProrated, sampleContentProvided: false)
        request.policyVersion = "v1"
        request.attempts = 1
        request.state = .answered
        request.answeredDate = 1_500
        try ledger.updateConsumptionRequest(request)
        let kept = try #require(try ledger.consumptionRequests().first)
        #expect(kept == request)
        #expect(try ledger.dueConsumptionRequests(at: 10_000_000).isEmpty)
        #expect(try ledger.claimConsumptionRequest(notificationUUID: "n-3", at: 10_000_000, heldUntil: 10_060_000) == nil)
    }

    @Test("a copy carries every request with its answer", arguments: LedgerBackend.available)
    func copied(on backend: LedgerBackend) throws {
        let source = try backend.freshLedger()
        try source.recordConsumptionRequest(Self.request("n-4"))
        var answered = Self.request("n-5", received: 2_000)
        answered.state = .unanswered
        answered.lastError = "the consumption hook answered nil: nothing is sent"
        try source.recordConsumptionRequest(answered)
        let target = try LedgerBackend.sqlite.freshLedger()
        let summary = try source.copy(to: target)
        #expect(summary.consumptionRequests == 2)
        #expect(try target.consumptionRequests() == source.consumptionRequests())
    }
}
