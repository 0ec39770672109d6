import Foundation
@testable import StoreCore
@testable import StoreTesting
import Testing

@Suite struct LocalStoreAskToBuyTests {
    static let askToBuy = #"{"_askToBuyEnabled": true}"#

    @Test func aPurchaseWaitsForApprovalThenGoesThrough() throws {
        let harness = try StoreHarness(settings: Self.askToBuy)
        guard case .pending(let request) = try harness.store.purchase("coins", customer: "kid", options: [.quantity(2)]) else {
            Issue.record("expected a pending purchase")
            return
        }
        #expect(request.state == .pending)
        #expect(request.productID == "coins")
        #expect(request.options == [.quantity(2)])
        #expect(try harness.ledgerTransactions("kid").isEmpty)
        #expect(try harness.store.notifications().isEmpty)

        try harness.store.advance(by: StoreHarness.duration("P1D"))
        let approved = try harness.store.approveAskToBuy(request.id)
        #expect(approved.payload.quantity == 2)
        #expect(approved.payload.purchaseDate == StoreHarness.date("2025-02-01T00:00:00Z"))
        #expect(try harness.ledger.balances(customerID: "kid") == ["coin": 20])
        #expect(try harness.sent() == ["ONE_TIME_CHARGE"])
        let answered = try #require(try harness.store.askToBuyRequests(customerID: "kid").first)
        #expect(answered.state == .approved)
        #expect(answered.transactionID == approved.payload.transactionId)
        #expect(throws: LocalStoreError.askToBuyRequestAlreadyDecided(id: request.id, state: .approved)) {
            try harness.store.declineAskToBuy(request.id)
        }
    }

    @Test func aDeclinedPurchaseMakesNoTransaction() throws {
        let harness = try StoreHarness(settings: Self.askToBuy)
        guard case .pending(let request) = try harness.store.purchase("pass.premium", customer: "kid") else {
            Issue.record("expected a pending purchase")
            return
        }
        #expect(try harness.store.declineAskToBuy(request.id).state == .declined)
        #expect(try harness.ledgerTransactions("kid").isEmpty)
        #expect(try harness.store.notifications().isEmpty)
        #expect(try harness.store.subscriptions(customerID: "kid").isEmpty)
        let before = try harness.footprint()
        #expect(throws: LocalStoreError.askToBuyRequestAlreadyDecided(id: request.id, state: .declined)) {
            try harness.store.approveAskToBuy(request.id)
        }
        #expect(throws: LocalStoreError.unknownAskToBuyRequest("nope")) {
            try harness.store.approveAskToBuy("nope")
        }
        #expect(try harness.footprint() == before)
    }

    @Test func aPurchaseOptionAsksWhateverTheSettingsSay() throws {
        let harness = try StoreHarness()
        guard case .pending(let request) = try harness.store.purchase(
            "pass.premium", customer: "kid", options: [.simulatesAskToBuy(true)]) else {
            Issue.record("expected a pending purchase")
            return
        }
        let approved = try harness.store.approveAskToBuy(request.id)
        #expect(approved.payload.offerType == .introductoryOffer)
        #expect(try harness.sent() == ["SUBSCRIBED/INITIAL_BUY"])

        let askingStore = try StoreHarness(settings: Self.askToBuy)
        guard case .success = try askingStore.store.purchase("coins", customer: "kid", options: [.simulatesAskToBuy(false)]) else {
            Issue.record("expected the purchase to go through")
            return
        }
    }

    @Test func anApprovalTheStoreNoLongerAllowsLeavesTheRequestPending() throws {
        let harness = try StoreHarness(settings: #"{"_askToBuyEnabled": true, "_renewalBillingIssuesEnabled": true}"#)
        try harness.buy("pass.basic", "kid", options: [.simulatesAskToBuy(false)])
        guard case .pending(let request) = try harness.store.purchase("pass.premium", customer: "kid") else {
            Issue.record("expected a pending purchase")
            return
        }
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        #expect(throws: LocalStoreError.subscriptionHasBillingIssue(customerID: "kid", groupID: "G1")) {
            try harness.store.approveAskToBuy(request.id)
        }
        #expect(try harness.store.askToBuyRequests().first?.state == .pending)
    }
}
