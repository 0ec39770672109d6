import Foundation
@testable import StoreCore
@testable import StoreTesting
import Testing

@Suite struct LocalStorePersistenceTests {
    @Test func aReopenedStoreCarriesOnWhereItWas() throws {
        let harness = try StoreHarness()
        let first = try harness.buy("pass.basic")
        try harness.store.advance(by: StoreHarness.duration("P10D"))
        let (ledger, reopened) = try harness.reopened()
        #expect(try reopened.now() == StoreHarness.date("2025-02-10T00:00:00Z"))
        let renewed = try reopened.advance(by: StoreHarness.duration("P1M"))
        #expect(renewed.map(\.summary) == ["DID_RENEW"])
        let renewal = try #require(renewed.first?.transaction)
        #expect(renewal.originalTransactionId == first.transactionId)
        #expect(Int64(renewal.transactionId!)! > Int64(first.transactionId!)!)
        #expect(try ledger.transactions(customerID: "ana").count == 2)
        #expect(try reopened.notifications().count == 2)
    }

    @Test func theSystemClockKeepsItsAdvanceAcrossProcesses() throws {
        let harness = try StoreHarness(clock: .system)
        try harness.store.advance(by: StoreHarness.duration("P1D"))
        let (_, reopened) = try harness.reopened(clock: .system)
        let expected = Date().addingTimeInterval(86_400)
        #expect(abs(try reopened.now().timeIntervalSince(expected)) < 60)
        // The purchase goes through the reopened store, whose clock comes only from the state file.
        guard case .success(let transaction) = try reopened.purchase("coins", customer: "ana") else {
            Issue.record("the reopened store's purchase did not succeed")
            return
        }
        #expect(abs(try #require(transaction.payload.purchaseDate).timeIntervalSince(expected)) < 60)
    }

    @Test func anAcceleratedTimeRateRenewsInSeconds() throws {
        let harness = try StoreHarness(settings: #"{"_timeRate": 15, "_renewalBillingIssuesEnabled": true, "_billingGracePeriodEnabled": true}"#)
        let first = try harness.buy("pass.basic")
        #expect(first.expiresDate == StoreHarness.start.addingTimeInterval(30))
        let failed = try harness.store.advance(by: StoreHarness.duration("P1M"))
        #expect(try harness.store.now() == StoreHarness.start.addingTimeInterval(30))
        #expect(failed.map(\.summary) == ["DID_FAIL_TO_RENEW/GRACE_PERIOD"])
        #expect(failed.first?.renewalInfo?.gracePeriodExpiresDate == StoreHarness.start.addingTimeInterval(30 + 16))
        try harness.store.updateSettings { $0.shouldEnterBillingRetryOnRenewal = false }
        try harness.store.resolveBillingIssue(customer: "ana", groupID: "G1")
        let renewals = try harness.store.advance(by: StoreHarness.duration("P2M"))
        #expect(renewals.map(\.summary) == ["DID_RENEW", "DID_RENEW"])
        #expect(renewals.last?.transaction?.expiresDate == StoreHarness.start.addingTimeInterval(120))
    }

    @Test func aDeliveryTheLedgerRefusesIsRetriedByTheNextOperation() throws {
        let harness = try StoreHarness()
        let id = String(StoreWriter.firstTransactionNumber)
        let clash = JWSTransactionDecodedPayload(
            originalTransactionId: id, transactionId: id, bundleId: StoreHarness.bundleID, productId: "com.example.pellets",
            purchaseDate: StoreHarness.start, originalPurchaseDate: StoreHarness.start, quantity: 1, type: .consumable,
            inAppOwnershipType: .purchased, signedDate: StoreHarness.start, environment: .xcode)
        try harness.ledger.ingest(transaction: clash, jwsRepresentation: try StoreHarness.authority.sign(clash), customerID: "zed",
                                  decide: StoreHarness.grants)
        #expect(throws: LedgerError.self) { try harness.store.purchase("coins", customer: "ana") }
        #expect(try harness.store.transactions(customerID: "ana").count == 1)
        #expect(try harness.ledgerTransactions().isEmpty)
        #expect(throws: LedgerError.self) { try harness.store.update() }

        try harness.ledgerDatabase.write { connection in
            for table in ["transaction_grant", "balance", "transaction_version", "store_transaction"] {
                try connection.execute("DELETE FROM \(table)")
            }
        }
        try harness.store.update()
        #expect(try harness.ledgerTransactions().map(\.productID) == ["coins"])
        #expect(try harness.ledger.balances(customerID: "ana") == ["coin": 10])
    }
}
