import Foundation
import ServiceCommandLine
import StoreCore
import Testing

/// Delivery reads the outbox's pending events through an index in the order it takes them (when
/// each is due, then when it was written), so a batch stops once it is taken however many events
/// wait behind it; a ledger whose index was by due time alone gets it when next opened.
@Suite struct LedgerOutgoingEventDueIndexTests {
    typealias Payloads = LedgerPayloads

    static let dueIndex = LedgerSchemaDescription.outgoingEventDue.name

    @Test("a ledger whose pending events were indexed by due time alone gets the index by due time and creation when next opened, and delivery reads through it",
          arguments: LedgerBackend.available)
    func dueIndexIsMigrated(on backend: LedgerBackend) throws {
        let location = try backend.freshLocation()
        _ = try location.open()
        let current = try #require(try location.indexShapes(named: [Self.dueIndex])[Self.dueIndex])
        #expect(current.columns == "next_attempt_date, created_date" && !current.isUnique)
        #expect(current.condition.contains("state = 'pending'"), "only pending events are indexed: \(current)")

        try location.takeBack(toBefore: "index pending outgoing events by due time and creation", undoing: [
            "DROP INDEX \(Self.dueIndex)",
            "CREATE INDEX \(Self.dueIndex) ON outgoing_event (next_attempt_date) WHERE state = 'pending'",
        ])
        #expect(try location.indexShapes(named: [Self.dueIndex])[Self.dueIndex]?.columns == "next_attempt_date")

        let ledger = try location.open().recordingOutgoingEvents(OutgoingEventRecording(clock: { Payloads.date(0) }))
        #expect(try location.indexShapes(named: [Self.dueIndex])[Self.dueIndex] == current)
        for customer in ["ana", "bo", "cy"] {
            let payload = Payloads.transaction(id: "\(customer)-1")
            _ = try ledger.ingest(transaction: payload, jwsRepresentation: Payloads.jws(payload), customerID: customer,
                                  decide: Payloads.grants)
        }
        let now = Date().millisecondsSince1970 + 1
        let batch = try ledger.claimOutgoingEvents(at: now, heldUntil: now + 30_000, limit: 2)
        let rest = try ledger.claimOutgoingEvents(at: now, heldUntil: now + 30_000, limit: 2)
        #expect(batch.count == 2 && rest.count == 1, "a batch stops at its limit and the next takes what waited behind it")
        #expect(Set((batch + rest).map(\.customerID)) == ["ana", "bo", "cy"])
        #expect(batch.allSatisfy { taken in rest.allSatisfy { ($0.nextAttemptDate, $0.createdDate) >= (taken.nextAttemptDate, taken.createdDate) } },
                "the earliest due are taken first")
        #expect(try ledger.checkInvariants().isEmpty)
    }
}
