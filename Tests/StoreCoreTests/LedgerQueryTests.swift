import Foundation
import Testing
@testable import StoreCore
import SQLiteLedger
import TestPrerequisites

@Suite struct LedgerQueryTests {
    private let directory: SQLiteTemporaryDirectory
    private let ledger: Ledger

    init() throws {
        directory = try SQLiteTemporaryDirectory()
        ledger = try Ledger(path: directory.path("ledger.sqlite"))
    }

    private func ingest(_ id: String, _ product: String, at offset: Int64, customer: String = "ada", type: TransactionProductType = .consumable) throws {
        let payload = LedgerFixtures.transaction(id: id, productID: product, type: type, purchasedAt: offset)
        try ledger.ingest(transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: customer, decide: LedgerFixtures.pelletsPolicy)
    }

    @Test func transactionsAreListedPerCustomerAndProductOldestFirst() throws {
        try ingest("t3", "pellets", at: 300)
        try ingest("t1", "pellets", at: 100)
        try ingest("t2", "recipe", at: 200, type: .nonConsumable)
        try ingest("t4", "pellets", at: 50, customer: "bob")
        #expect(try ledger.transactions(customerID: "ada").map(\.id) == ["t1", "t2", "t3"])
        #expect(try ledger.transactions(customerID: "ada", productID: "pellets").map(\.id) == ["t1", "t3"])
        #expect(try ledger.transactions(customerID: "bob").map(\.id) == ["t4"])
        #expect(try ledger.transactions(customerID: "nobody").isEmpty)
    }

    @Test func theLatestTransactionOfEachProductIsTheMostRecentPurchase() throws {
        try ingest("t1", "pellets", at: 100)
        try ingest("t3", "pellets", at: 300)
        try ingest("t2", "recipe", at: 200, type: .nonConsumable)
        try ingest("t4", "pellets", at: 900, customer: "bob")
        #expect(try ledger.latestTransactions(customerID: "ada").map(\.id) == ["t3", "t2"])
        #expect(try ledger.latestTransaction(customerID: "ada", productID: "pellets")?.id == "t3")
        #expect(try ledger.latestTransaction(customerID: "ada", productID: "seeds") == nil)
    }

    @Test func customersAreRegisteredOnceWithTheirToken() throws {
        let ada = try ledger.registerCustomer(id: "ada")
        #expect(ada.appAccountToken == nil)
        let withToken = try ledger.registerCustomer(id: "ada", appAccountToken: "a0000000-0000-4000-8000-00000000000a")
        #expect(withToken.appAccountToken == "a0000000-0000-4000-8000-00000000000a")
        #expect(withToken.createdDate == ada.createdDate)
        #expect(try ledger.registerCustomer(id: "ada") == withToken)
        try ledger.registerCustomer(id: "bob")
        #expect(try ledger.customers().map(\.id) == ["ada", "bob"])
        #expect(try ledger.customer(id: "ada") == withToken)
    }

    @Test func conflictingCustomerRegistrationsAreRefused() throws {
        try ledger.registerCustomer(id: "ada", appAccountToken: "a0000000-0000-4000-8000-00000000000a")
        #expect(throws: LedgerError.appAccountTokenInUse(token: "a0000000-0000-4000-8000-00000000000a", customerID: "ada")) {
            try ledger.registerCustomer(id: "bob", appAccountToken: "a0000000-0000-4000-8000-00000000000a")
        }
        #expect(throws: LedgerError.conflictingAppAccountToken(customerID: "ada", stored: "a0000000-0000-4000-8000-00000000000a", received: "b0000000-0000-4000-8000-00000000000b")) {
            try ledger.registerCustomer(id: "ada", appAccountToken: "b0000000-0000-4000-8000-00000000000b")
        }
        #expect(throws: LedgerError.invalidCustomerID(CustomerID.problem(with: "")!)) {
            try ledger.registerCustomer(id: "")
        }
        #expect(try ledger.customers().map(\.id) == ["ada"])
        #expect(try ledger.customer(id: "ada")?.appAccountToken == "a0000000-0000-4000-8000-00000000000a")
    }
}
