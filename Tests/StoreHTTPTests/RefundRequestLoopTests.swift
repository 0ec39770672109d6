import Foundation
import StoreCore
import StoreService
import StoreTesting
import Testing

/// The refund loop with the local store playing Apple: the customer asks for a refund; the store
/// posts `CONSUMPTION_REQUEST` to the service, which keeps the request, asks the policy's
/// `consumption` hook on the customer's state and sends the answer through the store's App
/// Store Server API, which records it; a request for a purchase kept pending waits for the
/// grant — on SQLite and on PostgreSQL.
@Suite struct RefundRequestLoopTests {
    /// The refund requests the service's ledger keeps, as `ledger consumption --json` prints
    /// them, once `done` holds of the first.
    private static func kept(_ loop: ServedStoreLoop, until done: @escaping ([String: Any]?) -> Bool) async throws -> [[String: Any]] {
        try await loop.eventually(seconds: 10, {
            try loop.service.ledger.consumptionRequests().map { request in
                let json = ConsumptionRequestJSON(request, delivery: try loop.service.ledger.delivery(ofTransaction: request.transactionID))
                return try JSONSerialization.jsonObject(with: try JSONEncoder().encode(json)) as? [String: Any] ?? [:]
            }
        }, until: { done($0.first) })
    }

    /// `body`'s JSON object.
    private static func object(_ body: String) -> [String: Any] {
        ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]) ?? [:]
    }

    @Test("a refund request is answered with what the policy decided on the customer's state", arguments: ServedStoreLoop.backends)
    func refundLoop(backend: String) async throws {
        let loop = try ServedStoreLoop(backend: backend)
        let token = UUID().uuidString.lowercased()
        _ = try loop.service.answer(.registerCustomer(customerID: "ana", appAccountToken: token))
        let transactionID = try loop.buy("pellet.box", token: token)
        for _ in 0..<4 {
            _ = try loop.service.answer(.recordEvent(customerID: "ana", name: "fed_pellet", placement: nil))
        }

        _ = try loop.store.requestRefund(transactionID: transactionID, reason: .unsatisfiedWithPurchase)
        try loop.store.sendDueNotifications()
        let received = try await loop.answers(to: transactionID)
        let first = try #require(received.first, "\(loop.log)")
        let answer = Self.object(first.body)
        #expect(first.version == 2)
        #expect(answer["customerConsented"] as? Bool == true)
        #expect(answer["deliveryStatus"] as? String == "DELIVERED")
        #expect(answer["consumptionPercentage"] as? Int == 80_000, "four of the box's five pellets were fed")
        #expect(answer["refundPreference"] as? String == "DECLINE")
        #expect(answer["sampleContentProvided"] as? Bool == false)

        let kept = try await Self.kept(loop) { $0?["state"] as? String == "answered" }
        #expect(kept.count == 1)
        #expect(kept.first?["state"] as? String == "answered", "\(kept)")
        #expect(kept.first?["reason"] as? String == "UNSATISFIED_WITH_PURCHASE")
        #expect((kept.first?["answer"] as? [String: Any])?["refundPreference"] as? String == "DECLINE")
        #expect(loop.log.contains("(transaction \(transactionID)): answered"), "\(loop.log)")
        #expect(loop.metrics.contains(#"hook="consumption""#), "\(loop.metrics)")

        _ = try loop.store.declineRefund(transactionID: transactionID)
        try loop.store.sendDueNotifications()
        // The service answers refund requests one after another, oldest first: once the answer to
        // a later request is at the store, a second answer the decline brought would be there too.
        let laterID = try loop.buy("pellet.box", token: token)
        _ = try loop.store.requestRefund(transactionID: laterID, reason: .unsatisfiedWithPurchase)
        try loop.store.sendDueNotifications()
        #expect(try await loop.answers(to: laterID).count == 1, "\(loop.log)")
        #expect(try loop.store.consumptionRecords(transactionID: transactionID).count == 1, "a declined refund brings no second answer")
    }

    @Test("a refund request for a purchase kept pending waits and is answered once its customer registers", arguments: ServedStoreLoop.backends)
    func waitForGrant(backend: String) async throws {
        let loop = try ServedStoreLoop(backend: backend)
        let token = UUID().uuidString.lowercased()
        let transactionID = try loop.buy("pellet.box", token: token)
        _ = try loop.store.requestRefund(transactionID: transactionID, reason: .unsatisfiedWithPurchase)
        try loop.store.sendDueNotifications()

        let waiting = try await Self.kept(loop) { ($0?["last_error"] as? String)?.contains("waiting") ?? false }.first
        let note = try #require(waiting?["last_error"] as? String, "\(String(describing: waiting))\n\(loop.log)")
        #expect(note.contains("waiting for the ledger to grant transaction \(transactionID)"), "\(note)")
        #expect(note.contains("its notification is kept until a customer registers its app account token"), "\(note)")
        #expect(waiting?["state"] as? String == "pending")
        #expect(waiting?["transaction_granted"] as? Bool == false)
        #expect(try loop.store.consumptionRecords(transactionID: transactionID).isEmpty, "nothing is told Apple about a purchase no one received yet")
        #expect(loop.log.contains("(transaction \(transactionID)): waiting for the ledger to grant"), "\(loop.log)")

        _ = try loop.service.answer(.registerCustomer(customerID: "ana", appAccountToken: token))
        let received = try await loop.answers(to: transactionID)
        let answer = Self.object(try #require(received.first, "the grant woke the responder: \(loop.log)").body)
        #expect(answer["deliveryStatus"] as? String == "DELIVERED")
        #expect(answer["consumptionPercentage"] as? Int == 0, "five pellets granted, none fed")
        #expect(answer["refundPreference"] as? String == "GRANT_FULL")
        let answered = try await Self.kept(loop) { $0?["state"] as? String == "answered" }.first
        #expect(answered?["state"] as? String == "answered", "\(String(describing: answered))")
        #expect(answered?["transaction_granted"] as? Bool == true)
        #expect(answered?["transaction_granted_at"] is String)
    }
}
