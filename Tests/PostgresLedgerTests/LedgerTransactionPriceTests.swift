import Foundation
import PostgresLedger
@testable import StoreCore
import SQLiteLedger
import Testing

@Suite struct LedgerTransactionPriceTests {
    typealias Payloads = LedgerPayloads

    @Test("a transaction keeps its price, and a ledger made before the column gets it from each stored JWS",
          arguments: LedgerBackend.available)
    func priceIsKeptAndMigrated(on backend: LedgerBackend) throws {
        let location = try backend.freshLocation()
        var ledger = try location.open()
        try ledger.registerCustomer(id: "ana")
        var trial = Payloads.transaction(id: "9300", productID: "pass.premium", type: .autoRenewableSubscription,
                                         expiresAt: 7 * Payloads.day)
        trial.price = 0
        var paid = Payloads.transaction(id: "9301", originalID: "9300", productID: "pass.premium", type: .autoRenewableSubscription,
                                        purchasedAt: 7 * Payloads.day, expiresAt: 37 * Payloads.day)
        paid.price = 9990
        for payload in [trial, paid] {
            try ledger.ingest(transaction: payload, jwsRepresentation: Payloads.jws(payload), customerID: "ana", decide: Payloads.grants)
        }
        #expect(try ledger.transactions(customerID: "ana").map(\.price) == [0, 9990])

        try location.takeBack(toBefore: "keep the price of transactions", undoing: [
            "DROP TABLE outgoing_event", "DROP TABLE outgoing_event_state",
            "DROP INDEX store_transaction_for_experiments", "DROP INDEX store_transaction_for_metrics", "ALTER TABLE store_transaction DROP COLUMN price", "DROP TABLE experiment_exposure", "DROP TABLE experiment_phase",
        ])
        ledger = try location.open()
        #expect(try ledger.transactions(customerID: "ana").map(\.price) == [0, 9990])
        #expect(try ledger.checkInvariants().isEmpty)
    }
}
