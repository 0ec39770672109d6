import Foundation
import PostgresLedger
import StoreCore
import SQLiteLedger
import Testing
import TestPrerequisites

/// The two databases hold one schema, made from one description.
@Suite struct LedgerSchemaAgreementTests {
    /// A column as both databases describe it: its table, name, position, and whether it may be NULL.
    struct ColumnShape: Hashable, CustomStringConvertible {
        let table: String
        let name: String
        let position: Int
        let isNullable: Bool
        var description: String { "\(table).\(name)#\(position)\(isNullable ? "?" : "")" }
    }

    @Test("a new SQLite ledger and a new PostgreSQL ledger have the same tables and columns, in order, with the same nullability",
          .enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason))
    func schemasAgree() throws {
        let ledgerTables = Set(LedgerSchemaDescription.tables.map(\.name))
        guard case .sqlite(let path) = try LedgerBackend.sqlite.freshLocation() else { throw LedgerBackend.BackendUnavailable() }
        _ = try SQLiteLedgerStorage(path: path)
        let sqlite = try Database(path: path).read { connection in
            try ledgerTables.sorted().flatMap { table in
                try connection.fetchAll("SELECT cid, name, \"notnull\", pk FROM pragma_table_info('\(table)')").map { row in
                    ColumnShape(table: table, name: try row.decode(column: "name"), position: Int(try row.decode(Int64.self, column: "cid")),
                                // SQLite's INTEGER PRIMARY KEY is never NULL, though not declared so.
                                isNullable: try row.decode(Int64.self, column: "notnull") == 0 && (try row.decode(Int64.self, column: "pk")) == 0)
                }
            }
        }
        guard case .postgres(let url) = try LedgerBackend.postgres.freshLocation() else { throw LedgerBackend.BackendUnavailable() }
        _ = try PostgresLedgerStorage(url: url, connections: 1)
        let postgres = try PostgresConnection(url: url).execute(
            """
            SELECT table_name, column_name, ordinal_position, is_nullable FROM information_schema.columns
            WHERE table_schema = 'public' ORDER BY table_name, ordinal_position
            """
        ).compactMap { row -> ColumnShape? in
            let table: String = try row.decode(column: "table_name")
            guard ledgerTables.contains(table) else { return nil }
            return ColumnShape(table: table, name: try row.decode(column: "column_name"),
                               position: Int(try row.decode(Int64.self, column: "ordinal_position")) - 1,
                               isNullable: try row.decode(String.self, column: "is_nullable") == "YES")
        }
        #expect(Set(sqlite.map(\.table)) == ledgerTables)
        #expect(sqlite.count == LedgerSchemaDescription.tables.reduce(0) { $0 + $1.columns.count })
        #expect(sqlite.sorted { $0.description < $1.description } == postgres.sorted { $0.description < $1.description })
    }
}
