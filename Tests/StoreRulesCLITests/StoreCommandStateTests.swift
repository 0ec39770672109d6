import Foundation
import StoreCore
import SQLiteLedger
import Testing

/// `storerules store` keeps the store's state in a file of its own, beside the ledger unless
/// `--store-state` names one, and takes it over from ledger files of earlier versions.
@Suite struct StoreCommandStateTests {
    typealias Shop = StoreCommandTests.Shop

    /// The names of the tables of the SQLite file at `path`.
    static func tables(at path: String) throws -> [String] {
        try Database(path: path).read { connection in
            try connection.fetchAll("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                .map { try $0.decode(String.self, at: 0) }
        }
    }

    /// Puts the store's tables of the state at `statePath` into the ledger at `ledgerPath`, with
    /// their rows, and removes the state file: a ledger file as earlier versions kept it.
    static func foldState(at statePath: String, intoLedgerAt ledgerPath: String) throws {
        do {
            let state = try Database(path: statePath)
            let schema = try state.read { connection in
                try connection.fetchAll(
                    "SELECT type, name, sql FROM sqlite_master WHERE name LIKE 'local_store%' AND sql IS NOT NULL ORDER BY rowid")
            }
            try Database(path: ledgerPath).write { connection in
                for entry in schema { try connection.execute(try entry.decode(String.self, column: "sql")) }
                try connection.execute("PRAGMA defer_foreign_keys = ON")
                for entry in schema where try entry.decode(String.self, column: "type") == "table" {
                    let table: String = try entry.decode(column: "name")
                    for row in try state.read({ try $0.fetchAll("SELECT * FROM \(table)") }) {
                        let placeholders = Array(repeating: "?", count: row.values.count).joined(separator: ", ")
                        try connection.execute(
                            "INSERT INTO \(table) (\(row.columnNames.joined(separator: ", "))) VALUES (\(placeholders))",
                            row.values.map { $0 })
                    }
                }
            }
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: statePath + suffix) {
            try FileManager.default.removeItem(atPath: statePath + suffix)
        }
    }

    @Test func theStoreStateGoesBesideTheLedgerAndTheLedgerHoldsNoStoreTable() throws {
        let shop = try Shop()
        _ = try shop.json("purchase", "pass.individual", "--customer", "ana")
        #expect(try Self.tables(at: shop.ledger + ".store.sqlite").contains("local_store_transaction"))
        let ledgerTables = try Self.tables(at: shop.ledger)
        #expect(ledgerTables.contains("store_transaction"))
        #expect(ledgerTables.filter { $0.hasPrefix("local_store") } == [])
    }

    @Test func storeStateNamesTheFileTheStoreKeepsItsStateIn() throws {
        let shop = try Shop()
        let state = URL(fileURLWithPath: shop.ledger).deletingLastPathComponent().appendingPathComponent("elsewhere.sqlite").path
        _ = try shop.json("purchase", "pass.individual", "--customer", "ana", "--store-state", state)
        #expect(!FileManager.default.fileExists(atPath: shop.ledger + ".store.sqlite"))
        let status = try shop.json("status", "--store-state", state)
        #expect((status["subscriptions"] as? [[String: Any]])?.map { $0["state"] as? String } == ["subscribed"])
        #expect((try shop.json("notifications", "--store-state", state)["notifications"] as? [Any])?.count == 1)
        #expect((try shop.json("notifications")["notifications"] as? [Any])?.count == 0)
    }

    @Test func theStoreStateCannotBeTheLedgerItself() throws {
        let shop = try Shop()
        let refused = try shop.run("status", "--store-state", shop.ledger)
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("--store-state must name another file than the ledger"))
        #expect(!FileManager.default.fileExists(atPath: shop.ledger + ".store.sqlite"))
    }

    @Test func aLedgerFileOfAnEarlierVersionHandsItsStoreOver() throws {
        let shop = try Shop()
        _ = try shop.json("purchase", "pass.individual", "--customer", "ana")
        _ = try shop.json("purchase", "pellet.box", "--customer", "ana")
        let sent = try #require(try shop.json("notifications")["notifications"] as? [[String: Any]])
        let statePath = shop.ledger + ".store.sqlite"
        try Self.foldState(at: statePath, intoLedgerAt: shop.ledger)
        #expect(try Self.tables(at: shop.ledger).contains("local_store_transaction"))

        let status = try shop.json("status")
        #expect((status["subscriptions"] as? [[String: Any]])?.map { $0["state"] as? String } == ["subscribed"])
        let outbox = try #require(try shop.json("notifications")["notifications"] as? [[String: Any]])
        #expect(outbox.map { $0["signed_payload"] as? String } == sent.map { $0["signed_payload"] as? String })
        #expect(!outbox.isEmpty)
        #expect(try Self.tables(at: statePath).contains("local_store_transaction"))
        #expect(try Self.tables(at: shop.ledger).filter { $0.hasPrefix("local_store") } == [])
        let renewed = try shop.json("advance", "P1M")
        #expect(StoreCommandTests.summaries(renewed) == ["DID_RENEW"])
    }
}
