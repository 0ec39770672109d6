import Foundation
@testable import StoreCore
@testable import StoreTesting
import Testing

/// Building a customer state: from the ledger, from signed data, and the inputs it refuses.
@Suite struct EntitlementCustomerStateTests {
    typealias F = EntitlementFixtures

    @Test func aCustomerTheLedgerDoesNotKnowHasAnEmptyState() throws {
        let store = try EntitlementLedger()
        let state = try store.state(onDay: 0, customer: "stranger")
        #expect(state.customerID == "stranger")
        #expect(state.date == F.day(0))
        #expect(state.transactions.isEmpty)
        #expect(state.currentEntitlements.isEmpty)
        #expect(state.subscriptionStatuses.isEmpty)
        #expect(state.balances.isEmpty)
        #expect(state.unfinishedTransactions.isEmpty)
        #expect(state.latestTransaction(for: "feeder.golden") == nil)
        #expect(try store.ledger.customer(id: "stranger") == nil, "reading a state records nobody")
    }

    @Test func anEmptyCustomerIDIsRefused() throws {
        let store = try EntitlementLedger()
        #expect(throws: LedgerError.invalidCustomerID(CustomerID.problem(with: "")!)) {
            try store.ledger.customerState(customerID: "", catalog: F.catalog)
        }
    }

    @Test func anotherCustomersTransactionsAreNotPartOfTheState() throws {
        let store = try EntitlementLedger()
        try store.record(F.transaction("400", product: "feeder.golden", type: .nonConsumable, bought: 1), customer: "ada")
        try store.record(F.transaction("401", product: "pellet.box", type: .consumable, bought: 1), customer: "grace")

        let ada = try store.state(onDay: 2, customer: "ada")
        let grace = try store.state(onDay: 2, customer: "grace")
        #expect(ada.transactions.map(\.id) == ["400"])
        #expect(ada.balances.isEmpty)
        #expect(grace.transactions.map(\.id) == ["401"])
        #expect(grace.balances == ["pellet": 5])
    }

    @Test func unfinishedTransactionsAreListedUntilTheirGrantIsRecorded() throws {
        let store = try EntitlementLedger()
        struct PolicyDown: Error {}
        let payload = F.transaction("402", product: "pellet.box", type: .consumable, bought: 1)
        try store.ledger.ingest(transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: "ada") { _ in
            throw PolicyDown()
        }
        try store.record(F.transaction("403", product: "pellet.box", type: .consumable, bought: 2))

        let state = try store.state(onDay: 3)
        #expect(state.unfinishedTransactions.map(\.id) == ["402"])
        #expect(state.balance(of: "pellet") == 5)

        try store.ledger.retryUnfinished(customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        let retried = try store.state(onDay: 3)
        #expect(retried.unfinishedTransactions.isEmpty)
        #expect(retried.balance(of: "pellet") == 10)
    }

    @Test func signedAndVerifiedDataGivesTheSameState() throws {
        let authority = try SigningAuthority.generate(validity: SigningAuthority.standardValidity(around: F.day(0)))
        let verifier = try SignedDataVerifier(
            rootCertificates: [authority.rootCertificate], bundleId: "com.example", environment: .sandbox)
        let store = try EntitlementLedger()

        for payload in [
            F.pass("410", product: "pass.family", bought: 0, offer: .introductoryOffer),
            F.transaction("411", product: "feeder.golden", type: .nonConsumable, bought: 1),
        ] {
            let jws = try authority.sign(payload)
            try store.ledger.ingest(
                transaction: try verifier.verifyAndDecodeTransaction(jws), jwsRepresentation: jws, customerID: "ada",
                decide: LedgerFixtures.pelletsPolicy)
        }
        let renewal = try authority.sign(F.renewal("410", product: "pass.family", billingRetry: true, graceUntil: 33, signed: 30))
        try store.ledger.ingest(renewalInfo: try verifier.verifyAndDecodeRenewalInfo(renewal), jwsRepresentation: renewal)

        let state = try store.state(onDay: 31)
        let status = try #require(state.subscriptionStatus(forGroup: "PASS"))
        #expect(status.state == .inGracePeriod)
        #expect(status.renewalInfo?.jwsRepresentation == renewal)
        #expect(try verifier.verifyAndDecodeTransaction(status.transaction.jwsRepresentation).transactionId == "410")
        #expect(state.entitledProductIDs == ["feeder.golden", "pass.family"])
        #expect(!state.isEligibleForIntroOffer(groupID: "PASS"))
        #expect(try store.state(onDay: 33).entitledProductIDs == ["feeder.golden"])
    }

    // MARK: - Records refused by the value initializer

    private static func stored(_ id: String, customer: String = "ada", originalID: String? = nil,
                               type: TransactionProductType = .autoRenewableSubscription) -> StoredTransaction {
        StoredTransaction(
            id: id, originalID: originalID ?? id, customerID: customer, productID: "pass.individual", productType: type,
            subscriptionGroupID: "PASS", purchaseDate: F.day(0), expirationDate: F.day(30), environment: .sandbox,
            signedDate: F.day(0), jwsRepresentation: "jws-\(id)", grantState: .granted)
    }

    private static func renewalInfo(_ originalID: String) -> StoredRenewalInfo {
        StoredRenewalInfo(originalTransactionID: originalID, autoRenewStatus: .on, signedDate: F.day(0), jwsRepresentation: "jws-r-\(originalID)")
    }

    private static func build(
        customer customerID: String = "ada", _ transactions: [StoredTransaction], _ renewalInfos: [StoredRenewalInfo] = []
    ) throws(CustomerStateError) -> CustomerState {
        try CustomerState(
            customerID: customerID, transactions: transactions, renewalInfos: renewalInfos, balances: [:],
            catalog: F.catalog, at: F.day(1))
    }

    @Test func theValueInitializerComputesFromRecords() throws {
        let state = try Self.build([Self.stored("1"), Self.stored("2", originalID: "1")], [Self.renewalInfo("1")])
        #expect(state.subscriptionStatus(forGroup: "PASS")?.renewalInfo == Self.renewalInfo("1"))
        #expect(state.subscriptionStatus(forGroup: "PASS")?.willAutoRenew == true)
    }

    @Test func theValueInitializerRefusesAnEmptyCustomerID() {
        #expect(throws: CustomerStateError.emptyCustomerID) { try Self.build(customer: "", []) }
    }

    @Test func theValueInitializerRefusesAnotherCustomersTransaction() {
        #expect(throws: CustomerStateError.transactionOfAnotherCustomer(transactionID: "2", owner: "grace", customerID: "ada")) {
            try Self.build([Self.stored("1"), Self.stored("2", customer: "grace")])
        }
    }

    @Test func theValueInitializerRefusesADuplicateTransaction() {
        #expect(throws: CustomerStateError.duplicateTransaction("1")) {
            try Self.build([Self.stored("1"), Self.stored("1")])
        }
    }

    @Test func theValueInitializerRefusesTwoRenewalInfosForOneSubscription() {
        #expect(throws: CustomerStateError.duplicateRenewalInfo(originalTransactionID: "1")) {
            try Self.build([Self.stored("1")], [Self.renewalInfo("1"), Self.renewalInfo("1")])
        }
    }

    @Test func theValueInitializerRefusesARenewalInfoOfNoSubscriptionOfTheCustomer() {
        #expect(throws: CustomerStateError.unrelatedRenewalInfo(originalTransactionID: "9")) {
            try Self.build([Self.stored("1")], [Self.renewalInfo("9")])
        }
        #expect(throws: CustomerStateError.unrelatedRenewalInfo(originalTransactionID: "5")) {
            try Self.build([Self.stored("5", type: .nonConsumable)], [Self.renewalInfo("5")])
        }
    }

    @Test func everyRefusalDescribesItselfInOneLine() {
        let errors: [CustomerStateError] = [
            .emptyCustomerID,
            .transactionOfAnotherCustomer(transactionID: "2", owner: "grace", customerID: "ada"),
            .duplicateTransaction("1"),
            .duplicateRenewalInfo(originalTransactionID: "1"),
            .unrelatedRenewalInfo(originalTransactionID: "9"),
        ]
        for error in errors {
            #expect(!error.description.isEmpty)
            #expect(!error.description.contains("\n"))
        }
        #expect(Set(errors.map(\.description)).count == errors.count)
    }
}
