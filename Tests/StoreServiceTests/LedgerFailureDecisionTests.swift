import AppStoreServerAPI
import Foundation
import StoreCore
import StoreService
import StoreTesting
import Testing

/// A ledger that cannot be read for a moment never makes the service decide about a customer
/// as if it did not know them: a refund request waits and is answered once the ledger reads
/// again; the cancel screen gets Apple's default message.
@Suite struct LedgerFailureDecisionTests {
    typealias Loop = ServiceLoop
    static let bundleID = ServiceLoop.bundleID
    static var authority: SigningAuthority { ServiceLoop.authority }

    struct LoopFailure: Error {}

    @Test func aRefundRequestWaitsForTheLedgerInsteadOfAnsweringForNobody() async throws {
        let loop = try Loop()
        try loop.deliver(try loop.store.requestRefund(transactionID: loop.transactionID))
        let responder = ConsumptionResponder(service: loop.service, client: loop.client)
        let now = Date()
        let waited = try await loop.withTransactionsUnreadable { try await responder.answerDue(now: now) }
        #expect(waited.map(\.request.state) == [.pending])
        #expect(waited.first?.request.answer == nil)
        #expect(waited.first?.request.lastError?.contains("store_transaction") == true, "\(String(describing: waited.first?.request.lastError))")
        #expect(try loop.store.consumptionRecords(transactionID: loop.transactionID).isEmpty, "nothing was sent")

        let answered = try await responder.answerDue(now: now.addingTimeInterval(120))
        #expect(answered.map(\.request.state) == [.answered])
        let sent = try #require(try loop.store.consumptionRecords(transactionID: loop.transactionID).first)
        #expect(sent.body.contains(#""consumptionPercentage":80000"#), "four of five pellets fed: \(sent.body)")
        #expect(sent.body.contains(#""refundPreference":"DECLINE""#))
    }

    @Test func theCancelScreenGetsTheDefaultMessageWhileTheLedgerCannotBeRead() async throws {
        let loop = try Loop()
        guard case .success(let pass) = try loop.store.purchase("pass.premium", customer: "ana", options: [.appAccountToken(loop.token)]),
              let originalID = pass.payload.originalTransactionId else { throw LoopFailure() }
        try loop.deliver(try loop.store.notifications(after: 1))
        _ = try loop.service.answer(.recordEvent(customerID: "ana", name: "price_rise_seen", placement: nil))
        let request = DecodedRealtimeRequestBody(originalTransactionId: originalID, productId: "pass.premium", userLocale: "en_US",
                                                 requestIdentifier: UUID().uuidString.lowercased(), signedDate: Date(), environment: .sandbox)
        let signed = try Self.authority.sign(request)
        // With a key to sign offers, a subscriber the ledger does not know would be offered Premium's
        // promotional offer: the ledger's failure must not make ana such a subscriber.
        let signer = PromotionalOfferSignatureIssuer(key: try loop.store.makeServerAPIKey().key, bundleID: Self.bundleID)
        let responder = RetentionResponder(service: loop.service, offerSigner: signer, metrics: ServiceMetrics(), recorder: DecisionRecorder(), log: { _ in })
        let unreadable = try await loop.withTransactionsUnreadable { try responder.answer(signedPayload: signed, requestID: "r1") }
        #expect(unreadable == .defaultMessage)
        let readable = try responder.answer(signedPayload: signed, requestID: "r2")
        #expect(readable.alternateProduct?.productId == "pass.family", "the policy answers once the ledger reads again")
    }
}
