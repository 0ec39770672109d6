import Foundation
import StoreCore
import StoreTesting
import Testing

/// A customer asking for a refund, as the App Store plays it: `CONSUMPTION_REQUEST` with their
/// reason, then the tester's decision — `REFUND`, or `REFUND_DECLINED`.
@Suite struct LocalStoreRefundRequestTests {
    @Test func aRefundRequestAsksForConsumptionInformationWithTheCustomersReason() throws {
        let harness = try StoreHarness()
        let coins = try #require(try harness.buy("coins").transactionId)
        let before = try harness.lastSequence()
        try harness.store.requestRefund(transactionID: coins, reason: .unintendedPurchase)
        #expect(try harness.sent(after: before) == ["CONSUMPTION_REQUEST"])
        let request = try #require(try harness.store.notifications(after: before).first)
        #expect(request.payload.data?.consumptionRequestReason == .unintendedPurchase)
        let carried = try harness.store.verifier.verifyAndDecodeTransaction(try #require(request.payload.data?.signedTransactionInfo))
        #expect(carried.transactionId == coins && carried.revocationDate == nil)
        #expect(throws: LocalStoreError.refundAlreadyRequested(transactionID: coins)) {
            try harness.store.requestRefund(transactionID: coins)
        }
    }

    @Test func approvingRefundsAndDecliningSaysSo() throws {
        let harness = try StoreHarness()
        let coins = try #require(try harness.buy("coins").transactionId)
        let recipe = try #require(try harness.buy("recipe.pro").transactionId)
        #expect(throws: LocalStoreError.noRefundRequest(transactionID: recipe)) { try harness.store.declineRefund(transactionID: recipe) }
        try harness.store.requestRefund(transactionID: coins)
        try harness.store.requestRefund(transactionID: recipe)
        let before = try harness.lastSequence()
        try harness.store.refund(transactionID: coins)
        try harness.store.declineRefund(transactionID: recipe)
        #expect(try harness.sent(after: before) == ["REFUND", "REFUND_DECLINED"])
        #expect(try harness.ledger.balances(customerID: "ana")["coin", default: 0] == 0, "the refunded coins are taken back")
        #expect(try harness.ledger.transaction(id: recipe)?.isRevoked == false, "a declined refund revokes nothing")
        #expect(throws: LocalStoreError.noRefundRequest(transactionID: recipe)) { try harness.store.declineRefund(transactionID: recipe) }
        #expect(throws: LocalStoreError.alreadyRevoked(transactionID: coins)) { try harness.store.requestRefund(transactionID: coins) }
        try harness.store.requestRefund(transactionID: recipe)
        #expect(try harness.sent(after: before).last == "CONSUMPTION_REQUEST", "a declined customer may ask again")
    }
}
