import Foundation
import Synchronization
import Testing
@testable import StoreCore
import SQLiteLedger
import TestPrerequisites

@Suite struct LedgerIngestTests {
    private let directory: SQLiteTemporaryDirectory
    private let ledger: Ledger

    init() throws {
        directory = try SQLiteTemporaryDirectory()
        ledger = try Ledger(path: directory.path("ledger.sqlite"))
    }

    @Test func aNewTransactionIsStoredVerbatimThenGrantedAndFinished() throws {
        let payload = LedgerFixtures.transaction(id: "1000", quantity: 3, purchasedAt: 10, signedAt: 20, appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        let jws = LedgerFixtures.jws(payload)
        let result = try ledger.ingest(transaction: payload, jwsRepresentation: jws, customerID: "ada") { transaction in
            #expect(transaction.jwsRepresentation == jws)
            #expect(transaction.grantState == .unfinished(.awaitingGrant))
            return LedgerFixtures.pelletsPolicy(transaction)
        }
        #expect(result.storage == .inserted)
        #expect(result.outcome == .granted([Grant(item: "pellet", amount: 15)]))
        let stored = try #require(try ledger.transaction(id: "1000"))
        #expect(stored == result.transaction)
        #expect(stored.jwsRepresentation == jws)
        #expect(stored.originalID == "1000")
        #expect(stored.customerID == "ada")
        #expect(stored.productID == "com.example.pellets")
        #expect(stored.productType == .consumable)
        #expect(stored.purchasedQuantity == 3)
        #expect(stored.purchaseDate == LedgerFixtures.date(10))
        #expect(stored.signedDate == LedgerFixtures.date(20))
        #expect(stored.ownershipType == .purchased)
        #expect(stored.environment == .sandbox)
        #expect(stored.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(stored.grantState == .granted)
        #expect(stored.isFinished)
        #expect(try ledger.grants(ofTransaction: "1000") == [Grant(item: "pellet", amount: 15)])
        #expect(try ledger.balances(customerID: "ada") == ["pellet": 15])
        #expect(try ledger.customers().map(\.id) == ["ada"])
    }

    @Test func theSameJWSDeliveredTwiceIsStoredAndGrantedOnce() throws {
        let payload = LedgerFixtures.transaction(id: "1001")
        let jws = LedgerFixtures.jws(payload)
        let decisions = Mutex(0)
        let policy: (StoredTransaction) throws -> [Grant] = { transaction in
            decisions.withLock { $0 += 1 }
            return LedgerFixtures.pelletsPolicy(transaction)
        }
        try ledger.ingest(transaction: payload, jwsRepresentation: jws, customerID: "ada", decide: policy)
        let again = try ledger.ingest(transaction: payload, jwsRepresentation: jws, customerID: "ada", decide: policy)
        #expect(again.storage == .unchanged)
        #expect(again.outcome == .alreadyFinished)
        #expect(decisions.withLock { $0 } == 1)
        #expect(try ledger.grants(ofTransaction: "1001").count == 1)
        #expect(try ledger.balance(of: "pellet", customerID: "ada") == 5)
        #expect(try ledger.versions(ofTransaction: "1001").count == 1)
    }

    @Test func aNewerJWSOfTheSameTransactionUpdatesItWithoutGrantingAgain() throws {
        let first = LedgerFixtures.transaction(id: "1002", signedAt: 0)
        let resigned = LedgerFixtures.transaction(id: "1002", signedAt: 5_000)
        try ledger.ingest(transaction: first, jwsRepresentation: LedgerFixtures.jws(first), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        let result = try ledger.ingest(transaction: resigned, jwsRepresentation: LedgerFixtures.jws(resigned), customerID: "ada") { _ in
            Issue.record("a finished transaction must not be decided again")
            return []
        }
        #expect(result.storage == .updated)
        #expect(result.outcome == .alreadyFinished)
        #expect(result.transaction.jwsRepresentation == LedgerFixtures.jws(resigned))
        #expect(result.transaction.signedDate == LedgerFixtures.date(5_000))
        #expect(try ledger.balance(of: "pellet", customerID: "ada") == 5)
        let versions = try ledger.versions(ofTransaction: "1002")
        #expect(versions.map(\.jwsRepresentation) == [LedgerFixtures.jws(first), LedgerFixtures.jws(resigned)])
    }

    @Test func anUpgradeMarksTheStoredSubscriptionUpgraded() throws {
        let purchase = LedgerFixtures.transaction(id: "2000", productID: "pass.monthly", type: .autoRenewableSubscription, signedAt: 0, subscriptionGroupID: "6F3A93AB")
        let upgraded = LedgerFixtures.transaction(id: "2000", productID: "pass.monthly", type: .autoRenewableSubscription, signedAt: 9_000, isUpgraded: true, subscriptionGroupID: "6F3A93AB")
        try ledger.ingest(transaction: purchase, jwsRepresentation: LedgerFixtures.jws(purchase), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        let result = try ledger.ingest(transaction: upgraded, jwsRepresentation: LedgerFixtures.jws(upgraded), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        #expect(result.storage == .updated)
        #expect(result.transaction.isUpgraded)
        #expect(result.transaction.subscriptionGroupID == "6F3A93AB")
    }

    @Test func anOlderJWSArrivingLateIsKeptOnlyInTheHistory() throws {
        let older = LedgerFixtures.transaction(id: "1003", signedAt: 0)
        let newer = LedgerFixtures.transaction(id: "1003", signedAt: 7_000)
        try ledger.ingest(transaction: newer, jwsRepresentation: LedgerFixtures.jws(newer), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        let late = try ledger.ingest(transaction: older, jwsRepresentation: LedgerFixtures.jws(older), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        #expect(late.storage == .superseded)
        #expect(late.outcome == .alreadyFinished)
        #expect(late.transaction.jwsRepresentation == LedgerFixtures.jws(newer))
        #expect(try ledger.versions(ofTransaction: "1003").count == 2)
        #expect(try ledger.balance(of: "pellet", customerID: "ada") == 5)
    }

    @Test(arguments: [
        ("productId", "ada", LedgerFixtures.transaction(id: "1004", productID: "com.example.seeds", signedAt: 1)),
        ("quantity", "ada", LedgerFixtures.transaction(id: "1004", quantity: 9, signedAt: 1)),
        ("purchaseDate", "ada", LedgerFixtures.transaction(id: "1004", purchasedAt: 99, signedAt: 1)),
        ("type", "ada", LedgerFixtures.transaction(id: "1004", type: .nonConsumable, signedAt: 1)),
    ])
    func aConflictingRedeliveryIsRefusedAndChangesNothing(field: String, customerID: String, conflicting: JWSTransactionDecodedPayload) throws {
        let original = LedgerFixtures.transaction(id: "1004")
        try ledger.ingest(transaction: original, jwsRepresentation: LedgerFixtures.jws(original), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        let before = try #require(try ledger.transaction(id: "1004"))
        let error = #expect(throws: LedgerError.self) {
            try ledger.ingest(transaction: conflicting, jwsRepresentation: LedgerFixtures.jws(conflicting), customerID: customerID, decide: LedgerFixtures.pelletsPolicy)
        }
        guard case .conflictingTransaction(let transactionID, let reportedField, _, _) = error else {
            Issue.record("expected conflictingTransaction, got \(String(describing: error))")
            return
        }
        #expect(transactionID == "1004")
        #expect(reportedField == field)
        #expect(try ledger.transaction(id: "1004") == before)
        #expect(try ledger.versions(ofTransaction: "1004").count == 1)
        #expect(try ledger.customer(id: "bob") == nil)
        #expect(try ledger.balances(customerID: "ada") == ["pellet": 5])
    }

    @Test func payloadsMissingRequiredFieldsAreRefusedAndStoreNothing() throws {
        var missingID = LedgerFixtures.transaction(id: "1005")
        missingID.transactionId = nil
        var emptyProduct = LedgerFixtures.transaction(id: "1005")
        emptyProduct.productId = ""
        var zeroQuantity = LedgerFixtures.transaction(id: "1005")
        zeroQuantity.quantity = 0
        var missingSignedDate = LedgerFixtures.transaction(id: "1005")
        missingSignedDate.signedDate = nil
        var missingType = LedgerFixtures.transaction(id: "1005")
        missingType.type = nil
        let cases: [(JWSTransactionDecodedPayload, String, String, LedgerError)] = [
            (missingID, LedgerFixtures.jws(missingID), "ada", .missingField(payload: "transaction", field: "transactionId")),
            (emptyProduct, LedgerFixtures.jws(emptyProduct), "ada", .invalidField(payload: "transaction", field: "productId", value: "an empty string")),
            (zeroQuantity, LedgerFixtures.jws(zeroQuantity), "ada", .invalidField(payload: "transaction", field: "quantity", value: "0")),
            (missingSignedDate, LedgerFixtures.jws(missingSignedDate), "ada", .missingField(payload: "transaction", field: "signedDate")),
            (missingType, LedgerFixtures.jws(missingType), "ada", .missingField(payload: "transaction", field: "type")),
            (LedgerFixtures.transaction(id: "1005"), "", "ada", .invalidField(payload: "transaction", field: "JWS", value: "an empty string")),
            (LedgerFixtures.transaction(id: "1005"), "a.b.c", "", .invalidCustomerID(CustomerID.problem(with: "")!)),
        ]
        for (payload, jws, customerID, expected) in cases {
            #expect(throws: expected) {
                try ledger.ingest(transaction: payload, jwsRepresentation: jws, customerID: customerID, decide: LedgerFixtures.pelletsPolicy)
            }
        }
        #expect(try ledger.transaction(id: "1005") == nil)
        #expect(try ledger.customers().isEmpty)
    }

    @Test func nonConsumablesAndSubscriptionsAreStoredAndFinishedWithoutGrants() throws {
        let recipe = LedgerFixtures.transaction(id: "3000", productID: "recipe.nectar", type: .nonConsumable)
        let pass = LedgerFixtures.transaction(id: "3001", productID: "pass.monthly", type: .autoRenewableSubscription)
        for payload in [recipe, pass] {
            let result = try ledger.ingest(transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
            #expect(result.outcome == .granted([]))
            #expect(result.transaction.isFinished)
        }
        #expect(try ledger.balances(customerID: "ada").isEmpty)
        #expect(try ledger.unfinishedTransactions().isEmpty)
    }

    @Test func aDecisionMayGrantSeveralItemsInOrder() throws {
        let bundle = LedgerFixtures.transaction(id: "3002", productID: "bundle.starter")
        let grants = [Grant(item: "pellet", amount: 10), Grant(item: "seed", amount: 3), Grant(item: "pellet", amount: 2)]
        let result = try ledger.ingest(transaction: bundle, jwsRepresentation: LedgerFixtures.jws(bundle), customerID: "ada") { _ in grants }
        #expect(result.outcome == .granted(grants))
        #expect(try ledger.grants(ofTransaction: "3002") == grants)
        #expect(try ledger.balances(customerID: "ada") == ["pellet": 12, "seed": 3])
        #expect(try LedgerFixtures.invariantViolations(in: ledger).isEmpty)
    }
}
