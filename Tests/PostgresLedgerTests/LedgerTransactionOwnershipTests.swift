import Foundation
import PostgresLedger
import ServiceCommandLine
import StoreCore
import SQLiteLedger
import Testing

/// A transaction belongs to the account its app account token is registered to, and once
/// stored, to its customer alone: another customer's claim is refused, names no one, and
/// changes nothing, on every storage.
@Suite struct LedgerTransactionOwnershipTests {
    typealias Payloads = LedgerPayloads

    static let victimToken = "0b6f1c3e-2a4d-4e5f-8a9b-1c2d3e4f5a6b"
    static let malloryToken = "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a"

    /// A ledger with victim and mallory registered with their tokens.
    static func registeredLedger(on backend: LedgerBackend) throws -> Ledger {
        let ledger = try backend.freshLedger()
        try ledger.registerCustomer(id: "victim", appAccountToken: victimToken)
        try ledger.registerCustomer(id: "mallory", appAccountToken: malloryToken)
        return ledger
    }

    static func ingest(_ payload: JWSTransactionDecodedPayload, for customerID: String, into ledger: Ledger) throws -> TransactionIngestResult {
        try ledger.ingest(transaction: payload, jwsRepresentation: Payloads.jws(payload), customerID: customerID, decide: Payloads.grants)
    }

    @Test("a purchase signed with one customer's token is refused to another, names neither, and grants nothing",
          arguments: LedgerBackend.available)
    func tokenOfAnotherCustomerIsRefused(on backend: LedgerBackend) throws {
        let ledger = try Self.registeredLedger(on: backend)
        let box = Payloads.transaction(id: "7100", appAccountToken: Self.victimToken.uppercased())
        let refusal = LedgerError.transactionOfAnotherCustomer(transactionID: "7100", refusal: .tokenOfAnotherCustomer)
        #expect(throws: refusal) { try Self.ingest(box, for: "mallory", into: ledger) }
        #expect(!refusal.description.contains("victim") && !refusal.description.contains("mallory"))
        #expect(try ledger.transactions(customerID: "mallory").isEmpty)
        #expect(try ledger.balances(customerID: "mallory").isEmpty)

        let granted = try Self.ingest(box, for: "victim", into: ledger)
        #expect(granted.outcome == .granted([Grant(item: "pellet", amount: 5)]))
        #expect(try ledger.balances(customerID: "victim") == ["pellet": 5])
    }

    @Test("a transaction stored for one customer is never stored or granted for another, even without a token",
          arguments: LedgerBackend.available)
    func storedTransactionStaysWithItsCustomer(on backend: LedgerBackend) throws {
        let ledger = try Self.registeredLedger(on: backend)
        let box = Payloads.transaction(id: "7200")
        _ = try Self.ingest(box, for: "victim", into: ledger)
        #expect(throws: LedgerError.transactionOfAnotherCustomer(transactionID: "7200", refusal: .storedForAnotherCustomer)) {
            try Self.ingest(box, for: "mallory", into: ledger)
        }
        #expect(try ledger.balances(customerID: "mallory").isEmpty)
        #expect(throws: LedgerError.transactionOfAnotherCustomer(transactionID: "7200", refusal: .storedForAnotherCustomer)) {
            try Self.ingest(box, for: "eve", into: ledger)
        }
        #expect(try ledger.customer(id: "eve") == nil)
        #expect(try ledger.transaction(id: "7200")?.customerID == "victim")
        #expect(try ledger.checkInvariants().isEmpty)
    }

    @Test("a renewal of another customer's subscription is refused: the subscription is its first buyer's",
          arguments: LedgerBackend.available)
    func renewalOfAnotherCustomersSubscriptionIsRefused(on backend: LedgerBackend) throws {
        let ledger = try Self.registeredLedger(on: backend)
        let first = Payloads.transaction(id: "7300", productID: "pass.family", type: .autoRenewableSubscription, expiresAt: 30 * Payloads.day)
        _ = try Self.ingest(first, for: "victim", into: ledger)
        let renewal = Payloads.transaction(
            id: "7301", originalID: "7300", productID: "pass.family", type: .autoRenewableSubscription,
            purchasedAt: 30 * Payloads.day, expiresAt: 60 * Payloads.day, signedAt: 30 * Payloads.day)
        #expect(throws: LedgerError.transactionOfAnotherCustomer(transactionID: "7301", refusal: .storedForAnotherCustomer)) {
            try Self.ingest(renewal, for: "mallory", into: ledger)
        }
        #expect(try ledger.transaction(id: "7301") == nil)
        #expect(try Self.ingest(renewal, for: "victim", into: ledger).storage == .inserted)
    }

    @Test("a token no customer has registered refuses nothing: the purchase goes to the customer who claims it, and to no other after",
          arguments: LedgerBackend.available)
    func unregisteredTokenGoesToItsFirstClaimant(on backend: LedgerBackend) throws {
        let ledger = try Self.registeredLedger(on: backend)
        let unregistered = "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f"
        let box = Payloads.transaction(id: "7400", appAccountToken: unregistered)
        #expect(try Self.ingest(box, for: "victim", into: ledger).outcome == .granted([Grant(item: "pellet", amount: 5)]))
        #expect(try ledger.customer(id: "victim")?.appAccountToken == Self.victimToken)
        #expect(throws: LedgerError.transactionOfAnotherCustomer(transactionID: "7400", refusal: .storedForAnotherCustomer)) {
            try Self.ingest(box, for: "mallory", into: ledger)
        }
    }

    @Test("Apple's notification for a purchase refused to another customer grants it to the token's owner",
          arguments: LedgerBackend.available)
    func notificationAfterRefusedClaimGrantsTheOwner(on backend: LedgerBackend) throws {
        let ledger = try Self.registeredLedger(on: backend)
        let box = Payloads.transaction(id: "7500", appAccountToken: Self.victimToken)
        #expect(throws: LedgerError.self) { try Self.ingest(box, for: "mallory", into: ledger) }
        let delivery = Payloads.Delivery(uuid: "n-7500", customerID: "unused", transaction: box, renewalInfo: nil)
        let result = try ledger.ingest(notification: delivery.notification, transaction: box, renewalInfo: nil, decide: Payloads.grants)
        guard case .processed(let ingested?, nil) = result else {
            Issue.record("expected the notification processed for victim, got \(result)")
            return
        }
        #expect(ingested.transaction.customerID == "victim")
        #expect(ingested.outcome == .granted([Grant(item: "pellet", amount: 5)]))
        #expect(try ledger.balances(customerID: "mallory").isEmpty)
    }

    @Test("ledger check reports a transaction stored for another customer than its token's, and a subscription split between customers",
          arguments: LedgerBackend.available)
    func checkReportsTransactionsOfAnotherAccount(on backend: LedgerBackend) throws {
        let location = try backend.freshLocation()
        let ledger = try location.open()
        let box = Payloads.transaction(id: "7600", appAccountToken: Self.victimToken)
        _ = try Self.ingest(box, for: "mallory", into: ledger)
        let first = Payloads.transaction(id: "7700", productID: "pass.family", type: .autoRenewableSubscription, expiresAt: 30 * Payloads.day)
        let renewal = Payloads.transaction(
            id: "7701", originalID: "7700", productID: "pass.family", type: .autoRenewableSubscription,
            purchasedAt: 30 * Payloads.day, expiresAt: 60 * Payloads.day, signedAt: 30 * Payloads.day)
        _ = try Self.ingest(first, for: "victim", into: ledger)
        _ = try Self.ingest(renewal, for: "victim", into: ledger)
        #expect(try ledger.checkInvariants().isEmpty)

        // What the ledger cannot refuse: a token registered after another customer stored its
        // purchase, and a renewal a ledger of an earlier version stored for another customer.
        try ledger.registerCustomer(id: "victim", appAccountToken: Self.victimToken)
        try Self.moveTransaction("7701", to: "mallory", at: location)
        #expect(try ledger.checkInvariants() == [
            "transaction 7600 is stored for mallory, but its app account token \(Self.victimToken) is registered to victim",
            "the transactions of original transaction 7700 are stored for several customers: mallory, victim",
        ])
    }

    /// Stores a transaction for another customer behind the ledger's back.
    static func moveTransaction(_ transactionID: String, to customerID: String, at location: LedgerLocation) throws {
        switch location {
        case .sqlite(let path):
            try Database(path: path).write { connection in
                try connection.execute("UPDATE store_transaction SET customer_id = ? WHERE transaction_id = ?", [customerID, transactionID])
            }
        case .postgres(let url):
            try PostgresConnection(url: url).execute(
                "UPDATE store_transaction SET customer_id = $1 WHERE transaction_id = $2", [.text(customerID), .text(transactionID)])
        }
    }
}
