import Foundation
@testable import StoreCore
import SQLiteLedger
@testable import StoreTesting
import Testing

/// Ledger files of earlier versions kept the store's tables beside the ledger's, created by the
/// ledger's second migration; they keep opening, and hand the store's state over.
@Suite struct LocalStoreLegacyLedgerTests {
    /// A store that bought a subscription and coins, then advanced ten days, whose state is then
    /// put into its ledger file as earlier versions kept it: the ledger's own migrations, then
    /// the store's tables made by the old migration's SQL, filled with the store's rows.
    static func legacyLedger(withIdentity: Bool = true) throws -> StoreHarness {
        let harness = try StoreHarness()
        try harness.buy("pass.basic")
        try harness.buy("coins")
        try harness.store.advance(by: StoreHarness.duration("P10D"))
        let tables = LocalStoreSchema.ledgerHeldTableNames.filter { withIdentity || $0 != "local_store_identity" }
        try Database(path: harness.ledgerPath).write { connection in
            try LocalStoreSchema.createTables(connection)
            if withIdentity { try LocalStoreSchema.createIdentityTable(connection) }
            try connection.execute("PRAGMA defer_foreign_keys = ON")
            for table in tables {
                // The old tables lack the columns later migrations added to the store's own.
                let legacyColumns = Set(try connection.fetchAll("SELECT name FROM pragma_table_info('\(table)')")
                    .map { try $0.decode(String.self, at: 0) })
                for row in try harness.store.state.read({ try $0.fetchAll("SELECT * FROM \(table)") }) {
                    let kept = row.columnNames.indices.filter { legacyColumns.contains(row.columnNames[$0]) }
                    let placeholders = Array(repeating: "?", count: kept.count).joined(separator: ", ")
                    try connection.execute(
                        "INSERT INTO \(table) (\(kept.map { row.columnNames[$0] }.joined(separator: ", "))) VALUES (\(placeholders))",
                        kept.map { row.values[$0] })
                }
            }
        }
        return harness
    }

    /// A store opened on the state moved out of `harness`'s ledger file into `path`.
    static func storeOnMovedState(_ harness: StoreHarness, at path: String) throws -> (Ledger, LocalStore, moved: Bool) {
        let ledger = try Ledger(path: harness.ledgerPath)
        let state = try Database(path: path)
        let moved = try LocalStore.moveState(fromLedgerAt: harness.ledgerPath, into: state)
        let store = try LocalStore(catalog: harness.store.catalog, authority: harness.store.authority, ledger: ledger,
                                   state: state, configuration: harness.store.configuration, decide: StoreHarness.grants)
        return (ledger, store, moved)
    }

    @Test func anEarlierLedgerFileOpensAtTheCurrentSchemaVersion() throws {
        let harness = try Self.legacyLedger()
        let ledger = try Ledger(path: harness.ledgerPath)
        #expect(try Database(path: harness.ledgerPath).read { try $0.fetchValue(Int.self, "PRAGMA user_version") }
            == Ledger.schemaVersion)
        #expect(try ledger.transactions(customerID: "ana").count == 2)
    }

    @Test func aNewStoreStateTakesOverTheStoreOfAnEarlierLedgerFile() throws {
        let harness = try Self.legacyLedger()
        let path = harness.directory.appendingPathComponent("moved.sqlite").path
        let (ledger, store, moved) = try Self.storeOnMovedState(harness, at: path)
        #expect(moved)
        #expect(try store.now() == StoreHarness.date("2025-02-10T00:00:00Z"))
        #expect(try store.transactions() == harness.store.transactions())
        #expect(try store.notifications().map(\.signedPayload) == harness.store.notifications().map(\.signedPayload))
        #expect(try store.subscriptions() == harness.store.subscriptions())
        #expect(try LocalStore.rememberedIdentity(in: store.state)
            == LocalStore.Identity(bundleID: StoreHarness.bundleID, environment: .xcode))

        let renewed = try store.advance(by: StoreHarness.duration("P1M"))
        #expect(renewed.map(\.summary) == ["DID_RENEW"])
        #expect(renewed.first?.sequence == (try harness.store.notifications().count) + 1)
        #expect(renewed.first?.transaction?.transactionId == String(StoreWriter.firstTransactionNumber + 2))
        #expect(try ledger.transactions(customerID: "ana").count == 3)
    }

    @Test func theMovedTablesLeaveTheLedgerFile() throws {
        let harness = try Self.legacyLedger()
        let path = harness.directory.appendingPathComponent("moved.sqlite").path
        _ = try Self.storeOnMovedState(harness, at: path)
        let tables = try LocalStoreStateTests.tables(in: Database(path: harness.ledgerPath))
        #expect(tables.filter { $0.hasPrefix("local_store") }.isEmpty)
        #expect(tables.contains("store_transaction"))
        let again = try LocalStore.moveState(
            fromLedgerAt: harness.ledgerPath,
            into: Database(path: harness.directory.appendingPathComponent("again.sqlite").path))
        #expect(!again)
    }

    @Test func aLedgerFileFromBeforeTheIdentityTableHandsItsStoreOverToo() throws {
        let harness = try Self.legacyLedger(withIdentity: false)
        let path = harness.directory.appendingPathComponent("moved.sqlite").path
        let (_, store, moved) = try Self.storeOnMovedState(harness, at: path)
        #expect(moved)
        #expect(try store.transactions().count == 2)
        #expect(try LocalStore.rememberedIdentity(in: store.state)
            == LocalStore.Identity(bundleID: StoreHarness.bundleID, environment: .xcode))
    }

    @Test func aStoreStateThatHoldsAStoreTakesNothingOver() throws {
        let harness = try Self.legacyLedger()
        #expect(try !LocalStore.moveState(fromLedgerAt: harness.ledgerPath, into: harness.store.state))
        let tables = try LocalStoreStateTests.tables(in: Database(path: harness.ledgerPath))
        #expect(tables.isSuperset(of: LocalStoreSchema.ledgerHeldTableNames))
    }

    @Test func aLedgerFileOfThisVersionHasNoStoreToHandOver() throws {
        let harness = try StoreHarness()
        try harness.buy("coins")
        let state = try Database(path: harness.directory.appendingPathComponent("fresh.sqlite").path)
        #expect(try !LocalStore.moveState(fromLedgerAt: harness.ledgerPath, into: state))
        #expect(try !LocalStore.moveState(fromLedgerAt: harness.directory.appendingPathComponent("none.sqlite").path,
                                          into: state))
        #expect(!FileManager.default.fileExists(atPath: harness.directory.appendingPathComponent("none.sqlite").path))
    }
}
