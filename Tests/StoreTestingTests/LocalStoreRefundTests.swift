import Foundation
@testable import StoreCore
@testable import StoreTesting
import Testing

@Suite struct LocalStoreRefundTests {
    @Test func refundingAConsumableRevokesItAndReversesItsGrants() throws {
        let harness = try StoreHarness()
        let coins = try harness.buy("coins", options: [.quantity(2)])
        try harness.buy("coins")
        try harness.store.advance(by: StoreHarness.duration("PT1H"))
        let sent = try harness.store.refund(transactionID: coins.transactionId!, reason: .refundedDueToIssue)
        #expect(sent.map(\.summary) == ["REFUND"])
        let refunded = try #require(sent.first?.transaction)
        #expect(refunded.revocationDate == StoreHarness.date("2025-01-31T01:00:00Z"))
        #expect(refunded.revocationReason == .refundedDueToIssue)
        #expect(refunded.revocationType == .refundFull)
        #expect(sent.first?.payload.data?.status == nil)
        let stored = try #require(try harness.ledger.transaction(id: coins.transactionId!))
        #expect(stored.isRevoked)
        #expect(stored.revocationReason == .refundedDueToIssue)
        #expect(try harness.ledger.reversedGrants(ofTransaction: coins.transactionId!) == [Grant(item: "coin", amount: 20)])
        #expect(try harness.ledger.balances(customerID: "ana") == ["coin": 10])
    }

    @Test func refundingTheLatestSubscriptionTransactionRevokesTheSubscription() throws {
        let harness = try StoreHarness()
        let first = try harness.buy("pass.basic")
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        let latest = try #require(try harness.ledgerTransactions().last)
        let sent = try harness.store.refund(transactionID: latest.id)
        #expect(sent.map(\.summary) == ["REFUND"])
        #expect(sent.first?.payload.data?.status == .revoked)
        #expect(sent.first?.renewalInfo?.autoRenewStatus == .off)
        #expect(sent.first?.transaction?.revocationReason == .refundedForOtherReason)
        #expect(try harness.store.subscription(customerID: "ana", groupID: "G1")?.state == .revoked)
        #expect(try harness.store.advance(by: StoreHarness.duration("P2M")).isEmpty)
        #expect(try harness.ledger.balances(customerID: "ana") == ["star": 1])
        #expect(try harness.ledger.transaction(id: first.transactionId!)?.isRevoked == false)

        let sequence = try harness.lastSequence()
        try harness.buy("pass.basic")
        #expect(try harness.sent(after: sequence) == ["SUBSCRIBED/RESUBSCRIBE"])
    }

    @Test func refundingAnEarlierSubscriptionTransactionKeepsTheSubscription() throws {
        let harness = try StoreHarness()
        let first = try harness.buy("pass.basic")
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        let sent = try harness.store.refund(transactionID: first.transactionId!)
        #expect(sent.map(\.summary) == ["REFUND"])
        #expect(sent.first?.payload.data?.status == .active)
        #expect(try harness.store.subscription(customerID: "ana", groupID: "G1")?.state == .subscribed)
    }

    @Test func badRefundsAreRefusedAndChangeNothing() throws {
        let harness = try StoreHarness()
        let coins = try harness.buy("coins")
        try harness.store.refund(transactionID: coins.transactionId!)
        let before = try harness.footprint()
        #expect(throws: LocalStoreError.alreadyRevoked(transactionID: coins.transactionId!)) {
            try harness.store.refund(transactionID: coins.transactionId!)
        }
        #expect(throws: LocalStoreError.unknownTransaction("123")) {
            try harness.store.refund(transactionID: "123")
        }
        #expect(try harness.footprint() == before)
    }
}
