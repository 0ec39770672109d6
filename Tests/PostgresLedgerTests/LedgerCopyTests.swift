import Foundation
import PostgresLedger
import StoreCore
import Testing

/// Moving a ledger between storages: everything arrives, and every customer looks the same.
@Suite struct LedgerCopyTests {
    typealias Payloads = LedgerPayloads

    /// Every pair of backends this run can use, the same one twice included.
    static let pairs: [(LedgerBackend, LedgerBackend)] = LedgerBackend.available.flatMap { from in
        LedgerBackend.available.map { (from, $0) }
    }

    @Test("a copied ledger answers every customer's state, versions and notifications as the original does",
          arguments: pairs)
    func copyIsFaithful(from source: LedgerBackend, to destination: LedgerBackend) throws {
        let original = try source.freshLedger()
        for delivery in Payloads.scriptedYear(customers: 3) {
            _ = try original.ingest(notification: delivery.notification, transaction: delivery.transaction,
                                    renewalInfo: delivery.renewalInfo, customerID: delivery.customerID, decide: Payloads.grants)
        }
        try original.registerCustomer(id: "newcomer", appAccountToken: "0a1b2c3d-0000-4000-8000-000000000001")
        let early = Payloads.transaction(id: "early-1", appAccountToken: "0a1b2c3d-0000-4000-8000-00000000ffff")
        let kept = Payloads.Delivery(uuid: "n-early-1", customerID: "unused", transaction: early, renewalInfo: nil)
        _ = try original.ingest(notification: kept.notification, transaction: early, renewalInfo: nil, decide: Payloads.grants)
        try original.setReconciliationMark(.checkpoint, key: "notifications", value: "1800000000000")
        try original.setReconciliationMark(.revision, key: "newcomer", value: "cjoxODAwMDAwMDAwMDAwOjE")
        try original.recordExposures([LedgerExposureTests.exposure("newcomer"), LedgerExposureTests.exposure("customer-1", variant: "annual")],
                                     phases: [LedgerExposureTests.phase()])
        let copy = try destination.freshLedger()
        let summary = try original.copy(to: copy)
        #expect(summary.reconciliationMarks == 2)
        #expect(summary.exposures == 2 && summary.experimentPhases == 1)
        #expect(try copy.storage.read { try $0.exposures() } == original.storage.read { try $0.exposures() })
        #expect(try copy.experimentPhases(experiment: nil) == original.experimentPhases(experiment: nil))
        #expect(try copy.reconciliationMarks() == original.reconciliationMarks())
        #expect(try copy.reconciliationMark(.revision, key: "newcomer")?.value == "cjoxODAwMDAwMDAwMDAwOjE")
        #expect(summary.customers == 4)
        #expect(summary.processedNotifications == Payloads.scriptedYear(customers: 3).count)
        #expect(try copy.customers() == original.customers())
        #expect(summary.pendingNotifications == 1)
        #expect(try copy.pendingNotifications() == original.pendingNotifications())
        let end = Payloads.date(400 * Payloads.day)
        for customer in try original.customers() {
            let before = try original.customerState(customerID: customer.id, at: end)
            let after = try copy.customerState(customerID: customer.id, at: end)
            #expect(after.transactions == before.transactions)
            #expect(after.balances == before.balances)
            #expect(after.entitledProductIDs == before.entitledProductIDs)
            #expect(after.subscriptionStatuses == before.subscriptionStatuses)
            #expect(after.exposures == before.exposures)
            for transaction in before.transactions {
                #expect(try copy.versions(ofTransaction: transaction.id).map(\.jwsRepresentation)
                        == original.versions(ofTransaction: transaction.id).map(\.jwsRepresentation))
                #expect(try copy.reversedGrants(ofTransaction: transaction.id) == original.reversedGrants(ofTransaction: transaction.id))
            }
        }
        #expect(try copy.checkInvariants().isEmpty)
        #expect(try copy.isNotificationProcessed("sub-0-3"))
    }

    @Test("a copy into a ledger that holds something is refused and changes nothing", arguments: LedgerBackend.available)
    func copyNeedsAnEmptyTarget(on backend: LedgerBackend) throws {
        let original = try backend.freshLedger()
        try original.registerCustomer(id: "ana")
        let occupied = try backend.freshLedger()
        try occupied.registerCustomer(id: "bo")
        #expect(throws: LedgerError.copyTargetNotEmpty(1)) { try original.copy(to: occupied) }
        #expect(try occupied.customers().map(\.id) == ["bo"])
    }
}
