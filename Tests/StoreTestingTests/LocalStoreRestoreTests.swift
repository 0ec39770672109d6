import Foundation
@testable import StoreCore
@testable import StoreTesting
import Testing

@Suite struct LocalStoreRestoreTests {
    @Test func restoringRedeliversEveryTransactionAndChangesNothing() throws {
        let harness = try StoreHarness()
        try harness.buy("coins", options: [.quantity(3)])
        try harness.buy("recipe.pro")
        try harness.buy("pass.premium")
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        let transactions = try harness.ledgerTransactions()
        let versions = try transactions.map { try harness.ledger.versions(ofTransaction: $0.id).count }
        let balances = try harness.ledger.balances(customerID: "ana")

        let restored = try harness.store.sync(customer: "ana")
        let again = try harness.store.sync(customer: "ana")
        #expect(restored == again)
        #expect(restored.map(\.payload.transactionId) == transactions.map(\.id))
        #expect(try harness.ledgerTransactions() == transactions)
        #expect(try transactions.map { try harness.ledger.versions(ofTransaction: $0.id).count } == versions)
        #expect(try harness.ledger.balances(customerID: "ana") == balances)
        #expect(try harness.store.sync(customer: "nobody").isEmpty)
        #expect(throws: LocalStoreError.emptyCustomerID) { try harness.store.sync(customer: "") }
    }

    /// An app that lost its data (a new device) gets everything back from a restore.
    @Test func restoringIntoAnEmptiedLedgerRebuildsTheCustomersPurchases() throws {
        let harness = try StoreHarness()
        try harness.buy("coins", options: [.quantity(3)])
        try harness.buy("pass.premium")
        try harness.ledgerDatabase.write { connection in
            try connection.execute("DELETE FROM transaction_grant")
            try connection.execute("DELETE FROM transaction_version")
            try connection.execute("DELETE FROM balance")
            try connection.execute("DELETE FROM store_transaction")
            try connection.execute("DELETE FROM renewal_info")
        }
        #expect(try harness.ledgerTransactions().isEmpty)
        try harness.store.sync(customer: "ana")
        #expect(try harness.ledgerTransactions().count == 2)
        #expect(try harness.ledger.balances(customerID: "ana") == ["coin": 30, "star": 1])
        let subscription = try #require(try harness.store.subscription(customerID: "ana", groupID: "G1"))
        #expect(try harness.ledger.renewalInfo(originalTransactionID: subscription.originalTransactionID) != nil)
    }

    @Test func updatesAnnounceEveryChangeInOrder() async throws {
        let harness = try StoreHarness()
        let updates = harness.store.updates()
        try harness.buy("coins")
        try harness.buy("pass.basic")
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        var kinds: [String] = []
        for await update in updates {
            switch update {
            case .transaction(let transaction, let customerID):
                #expect(customerID == "ana")
                #expect(try harness.ledger.transaction(id: transaction.payload.transactionId!) != nil)
                kinds.append("transaction")
            case .renewalInfo(_, let customerID):
                #expect(customerID == "ana")
                kinds.append("renewalInfo")
            case .notification(let notification):
                kinds.append(notification.summary)
            }
            if kinds.count == 8 { break }
        }
        #expect(kinds == [
            "transaction", "ONE_TIME_CHARGE",
            "transaction", "renewalInfo", "SUBSCRIBED/INITIAL_BUY",
            "transaction", "renewalInfo", "DID_RENEW",
        ])
    }
}
