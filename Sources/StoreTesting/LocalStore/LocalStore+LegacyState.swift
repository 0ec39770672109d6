import Foundation
import StoreCore
import SQLiteLedger

extension LocalStore {
    /// Moves a store's state out of a ledger file of an earlier version, which kept the store's
    /// `local_store_*` tables beside the ledger's, into `state`.
    ///
    /// Nothing moves when `state` already holds a store, or when the file at `ledgerPath` holds
    /// no store's tables (a ledger of this version, or none at all). Otherwise every row is
    /// copied into `state` in one transaction, and once that has committed the tables are
    /// dropped from the ledger file, which is then a ledger like any other. Open the ledger
    /// first, so the file is known to be one.
    ///
    /// - Returns: whether a state moved.
    /// - Throws: ``DatabaseMigrationError``; ``SQLiteError`` (nothing has moved when the copy
    ///   fails; the ledger file keeps the tables when only dropping them fails).
    @discardableResult
    public static func moveState(fromLedgerAt ledgerPath: String, into state: Database) throws -> Bool {
        guard FileManager.default.fileExists(atPath: ledgerPath) else { return false }
        try LocalStoreSchema.migrator.migrate(state)
        let ledgerFile = try Database(path: ledgerPath)
        let moved = try state.write { connection in
            guard try connection.fetchValue(Int.self, "SELECT count(*) FROM local_store_state") == 0 else { return [String]() }
            let tables = try ledgerFile.read(storeTables)
            guard tables.contains("local_store_state") else { return [] }
            try connection.execute("PRAGMA defer_foreign_keys = ON")
            for table in tables {
                try copyRows(of: table, from: ledgerFile, into: connection)
            }
            return tables
        }
        guard !moved.isEmpty else { return false }
        try ledgerFile.write { connection in
            for table in moved.reversed() { try connection.execute("DROP TABLE \(table)") }
        }
        return true
    }

    /// The store's tables `connection`'s file holds, in ``LocalStoreSchema/tableNames`` order.
    private static func storeTables(_ connection: DatabaseConnection) throws -> [String] {
        let present = Set(try connection.fetchAll("SELECT name FROM sqlite_master WHERE type = 'table'")
            .map { try $0.decode(String.self, at: 0) })
        return LocalStoreSchema.tableNames.filter(present.contains)
    }

    /// Copies every row of `table` from `source` into the same table of `connection`.
    private static func copyRows(of table: String, from source: Database, into connection: DatabaseConnection) throws {
        for row in try source.read({ try $0.fetchAll("SELECT * FROM \(table)") }) {
            let columns = row.columnNames.joined(separator: ", ")
            let placeholders = Array(repeating: "?", count: row.values.count).joined(separator: ", ")
            try connection.execute("INSERT INTO \(table) (\(columns)) VALUES (\(placeholders))",
                                   row.values.map { $0 })
        }
    }
}
