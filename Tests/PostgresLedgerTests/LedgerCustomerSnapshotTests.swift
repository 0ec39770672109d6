import Foundation
import PostgresLedger
import StoreCore
import SQLiteLedger
import Testing
import TestPrerequisites

/// A customer's snapshot read by the storage at once is the snapshot read read by read.
@Suite struct LedgerCustomerSnapshotTests {
    typealias Payloads = LedgerPayloads

    /// A ledger holding, for ana, boxes, a refunded box, two subscriptions with renewal infos,
    /// a balance at zero and events over and under the recent limit.
    static func richLedger(_ backend: LedgerBackend) throws -> Ledger {
        let ledger = try backend.freshLedger()
        let deliveries: [JWSTransactionDecodedPayload] = [
            Payloads.transaction(id: "1", quantity: 2, purchasedAt: 0),
            Payloads.transaction(id: "2", purchasedAt: Payloads.day),
            Payloads.transaction(id: "3", productID: "pass.monthly", type: .autoRenewableSubscription, purchasedAt: 0,
                                 expiresAt: 30 * Payloads.day),
            Payloads.transaction(id: "4", originalID: "3", productID: "pass.monthly", type: .autoRenewableSubscription,
                                 purchasedAt: 30 * Payloads.day, expiresAt: 60 * Payloads.day, signedAt: 30 * Payloads.day),
            Payloads.transaction(id: "5", productID: "pass.yearly", type: .autoRenewableSubscription, purchasedAt: 2 * Payloads.day,
                                 expiresAt: 400 * Payloads.day),
            Payloads.transaction(id: "2", purchasedAt: Payloads.day, signedAt: 3 * Payloads.day, revokedAt: 3 * Payloads.day),
        ]
        for payload in deliveries {
            _ = try ledger.ingest(transaction: payload, jwsRepresentation: Payloads.jws(payload), customerID: "ana", decide: Payloads.grants)
        }
        for (original, product) in [("3", "pass.monthly"), ("5", "pass.yearly")] {
            let renewal = Payloads.renewalInfo(originalID: original, productID: product, signedAt: 5 * Payloads.day, autoRenew: .off)
            _ = try ledger.ingest(renewalInfo: renewal, jwsRepresentation: Payloads.jws(renewal))
        }
        for minute in 0..<(EventSummary.recentLimit + 3) {
            try ledger.recordEvent(customerID: "ana", name: "paywall_shown", placement: "home",
                                   at: Payloads.date(Int64(minute) * 60_000))
        }
        try ledger.recordEvent(customerID: "ana", name: "store_opened", at: Payloads.date(7))
        try ledger.registerCustomer(id: "cy")
        return ledger
    }

    @Test("the storage's snapshot of a customer is the snapshot read read by read, for a rich, an empty and an unknown customer",
          arguments: LedgerBackend.available)
    func snapshotMatchesReads(on backend: LedgerBackend) throws {
        let ledger = try Self.richLedger(backend)
        for customer in ["ana", "cy", "nobody"] {
            let atOnce = try ledger.storage.customerSnapshot(customerID: customer)
            let readByRead = try ledger.storage.read { try $0.customerSnapshot(customerID: customer, signedData: false) }
            #expect(atOnce == readByRead, "\(customer)")
            if let sqlite = ledger.storage as? SQLiteLedgerStorage {
                #expect(try sqlite.customerSnapshotInOneStatement(customerID: customer) == readByRead, "\(customer), in one statement")
            }
        }
        let ana = try ledger.storage.customerSnapshot(customerID: "ana")
        #expect(ana.transactions.map(\.id) == ["1", "3", "2", "5", "4"], "in purchase order")
        #expect(ana.transactions.allSatisfy { $0.jwsRepresentation.isEmpty })
        #expect(ana.renewalInfos.map(\.originalTransactionID) == ["3", "5"])
        #expect(ana.balances == ["pellet": 10], "the refunded box's grant is reversed")
        #expect(ana.events["paywall_shown"]?.count == EventSummary.recentLimit + 3)
        #expect(ana.events["paywall_shown"]?.recent.count == EventSummary.recentLimit)
        #expect(ana.events["store_opened"]?.count == 1)
        #expect(ana.isKnown)
        #expect(try ledger.storage.customerSnapshot(customerID: "cy").isKnown)
        #expect(try !ledger.storage.customerSnapshot(customerID: "nobody").isKnown)
    }

    @Test("on PostgreSQL a storefront's read of a customer is one round trip once its statement is prepared",
          .enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason))
    func storefrontReadIsOneRoundTrip() throws {
        let ledger = try Self.richLedger(.postgres)
        let storage = try #require(ledger.storage as? PostgresLedgerStorage)
        _ = try ledger.customerState(customerID: "cy", signedData: false)
        let before = storage.roundTrips
        let state = try ledger.customerState(customerID: "ana", signedData: false)
        #expect(storage.roundTrips - before == 1, "the statement was prepared by the first read")
        #expect(state.balances == ["pellet": 10])
    }
}
