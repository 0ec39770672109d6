import Foundation
import StoreCore
import Testing

@Suite struct LedgerTransactionStorefrontTests {
    typealias Payloads = LedgerPayloads

    @Test("a transaction keeps its storefront, and a ledger made before the column gets it from each stored JWS",
          arguments: LedgerBackend.available)
    func storefrontIsKeptAndMigrated(on backend: LedgerBackend) throws {
        let location = try backend.freshLocation()
        var ledger = try location.open()
        var french = Payloads.transaction(id: "9500")
        french.storefront = "FRA"
        var american = Payloads.transaction(id: "9501", purchasedAt: Payloads.day)
        american.storefront = "USA"
        let unsaid = Payloads.transaction(id: "9502", purchasedAt: 2 * Payloads.day)
        for payload in [french, american, unsaid] {
            try ledger.ingest(transaction: payload, jwsRepresentation: Payloads.jws(payload), customerID: "ana", decide: Payloads.grants)
        }
        let stored = { try ledger.transactions(customerID: "ana").sorted { $0.id < $1.id }.map(\.storefront) }
        #expect(try stored() == ["FRA", "USA", nil])

        try location.takeBack(toBefore: "keep the storefront of transactions", undoing: [
            "DROP TABLE outgoing_event", "DROP TABLE outgoing_event_state",
            "DROP INDEX store_transaction_for_metrics", "ALTER TABLE store_transaction DROP COLUMN storefront",
        ])
        ledger = try location.open()
        #expect(try stored() == ["FRA", "USA", nil])
        #expect(try ledger.checkInvariants().isEmpty)
    }
}
