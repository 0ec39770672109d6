import Foundation
import PostgresLedger
import ServiceCommandLine
import SQLiteLedger
import StoreCore
import Testing

/// The indexes an experiment's report reads through: a ledger made before they were by
/// customer gets them when it is next opened, on both backends.
@Suite struct LedgerExperimentReportIndexTests {
    static let names = ["experiment_exposure_by_phase", "experiment_exposure_by_variant", "store_transaction_for_experiments"]

    /// The report's indexes the database at `location` holds, by name.
    static func reportIndexes(at location: LedgerLocation) throws -> [String: LedgerIndexShape] {
        try location.indexShapes(named: names)
    }

    @Test("a ledger whose report indexes were by purchase time and by variant gets them by customer when next opened",
          arguments: LedgerBackend.available)
    func reportIndexesAreMigrated(on backend: LedgerBackend) throws {
        let location = try backend.freshLocation()
        _ = try location.open()
        let current = try Self.reportIndexes(at: location)
        #expect(current == [
            "experiment_exposure_by_phase": LedgerIndexShape(isUnique: true, columns: "experiment, phase, customer_id"),
            "store_transaction_for_experiments": LedgerIndexShape(
                isUnique: false,
                columns: "customer_id, original_transaction_id, currency, purchase_date, price, offer_type, offer_discount_type, revocation_date"),
        ])

        let earlierTransactionColumns = "customer_id, purchase_date, original_transaction_id, price, currency, offer_type, offer_discount_type, revocation_date"
        try location.takeBack(toBefore: "index transactions and exposures for experiment reports by customer", undoing: [
            "DROP INDEX experiment_exposure_by_phase", "DROP INDEX store_transaction_for_experiments",
            "CREATE INDEX experiment_exposure_by_variant ON experiment_exposure (experiment, phase, variant, exposed_date)",
            "CREATE INDEX store_transaction_for_experiments ON store_transaction (\(earlierTransactionColumns))",
        ])
        #expect(try Self.reportIndexes(at: location) == [
            "experiment_exposure_by_variant": LedgerIndexShape(isUnique: false, columns: "experiment, phase, variant, exposed_date"),
            "store_transaction_for_experiments": LedgerIndexShape(isUnique: false, columns: earlierTransactionColumns),
        ])

        let ledger = try location.open()
        #expect(try Self.reportIndexes(at: location) == current)
        #expect(try ledger.checkInvariants().isEmpty)
    }
}
