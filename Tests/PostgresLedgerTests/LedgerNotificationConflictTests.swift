import Foundation
import StoreCore
import Testing

/// A notification whose transaction contradicts the stored one is answered, kept for an
/// operator and listed by the check, on every storage.
@Suite struct LedgerNotificationConflictTests {
    typealias Payloads = LedgerPayloads

    @Test("a contradicting notification is kept as a conflict, changes nothing, and is processed once",
          arguments: LedgerBackend.available)
    func conflictIsKept(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let box = Payloads.transaction(id: "5300")
        _ = try ledger.ingest(transaction: box, jwsRepresentation: Payloads.jws(box), customerID: "ana", decide: Payloads.grants)
        var changed = box
        changed.productId = "seeds.box"
        let delivery = Payloads.Delivery(uuid: "n-5300", customerID: "unused", transaction: changed, renewalInfo: nil)
        let first = try ledger.ingest(notification: delivery.notification, transaction: changed, renewalInfo: nil, decide: Payloads.grants)
        guard case .conflict(let reason) = first else {
            Issue.record("expected a conflict, got \(first)")
            return
        }
        #expect(reason.contains("productId"))
        #expect(try ledger.ingest(notification: delivery.notification, transaction: changed, renewalInfo: nil, decide: Payloads.grants)
                == .alreadyProcessed)
        let conflicts = try ledger.notificationConflicts()
        #expect(conflicts.map(\.uuid) == ["n-5300"])
        #expect(conflicts.first?.field == "productId")
        #expect(try ledger.transaction(id: "5300")?.productID == box.productId)
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 5])
        #expect(try ledger.checkInvariants().contains { $0.contains("n-5300") && $0.contains("productId") })
    }
}
