import Foundation
@testable import StoreCore
import SQLiteLedger
@testable import StoreTesting
import Testing

/// The store keeps its state in a database of its own; the ledger holds only the ledger.
@Suite struct LocalStoreStateTests {
    /// The names of the tables `database` holds.
    static func tables(in database: Database) throws -> Set<String> {
        Set(try database.read { connection in
            try connection.fetchAll("SELECT name FROM sqlite_master WHERE type = 'table'").map { try $0.decode(String.self, at: 0) }
        })
    }

    @Test func aLedgerTheStoreDeliversToHoldsNoStoreTable() throws {
        let harness = try StoreHarness()
        try harness.buy("pass.premium")
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        let ledgerTables = try Self.tables(in: Database(path: harness.ledgerPath))
        #expect(ledgerTables.contains("store_transaction"))
        #expect(ledgerTables.filter { $0.hasPrefix("local_store") }.isEmpty)
        #expect(try harness.ledgerTransactions().count == 2)
    }

    @Test func theStoreStateHoldsEveryStoreTableAndNoLedgerTable() throws {
        let harness = try StoreHarness()
        try harness.buy("coins")
        let stateTables = try Self.tables(in: harness.store.state)
        #expect(Set(LocalStoreSchema.tableNames).isSubset(of: stateTables))
        #expect(stateTables.isDisjoint(with: ["customer", "store_transaction", "transaction_grant", "balance"]))
        #expect(try LocalStoreSchema.migrator.schemaVersion(of: harness.store.state)
            == LocalStoreSchema.migrator.migrations.count)
    }

    @Test func aStoreReadsItsStateFromItsOwnDatabaseNotFromTheLedger() throws {
        let harness = try StoreHarness()
        try harness.buy("coins")
        let otherState = harness.directory.appendingPathComponent("other-store.sqlite").path
        let other = try LocalStore(catalog: harness.store.catalog, authority: harness.store.authority,
                                   ledger: harness.ledger, state: try Database(path: otherState),
                                   configuration: harness.store.configuration, decide: StoreHarness.grants)
        #expect(try other.transactions().isEmpty)
        #expect(try harness.store.transactions().count == 1)
    }
}
