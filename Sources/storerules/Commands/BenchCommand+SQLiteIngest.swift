import Foundation
import StoreCore

extension BenchCommand {
    /// Transactions ingested, and reference rows inserted, per round.
    static let sqliteIngestCount = 200

    /// Measures, in interleaved rounds on new files in `workspace`, durable ingests per second
    /// into a SQLite ledger against inserts per second of the same transactions as reference
    /// rows through `Database` at the same durability (write-ahead log, `synchronous=FULL`),
    /// one `BEGIN IMMEDIATE … COMMIT` each, and records the best of each in `figures`.
    static func measureSQLiteIngest(_ supply: BenchTransactionSupply, workspace: URL, into figures: inout LedgerBenchFigures) throws {
        let items = supply.slice(from: 0, count: sqliteIngestCount)
        var ingests = 0.0
        var inserts = 0.0
        for round in 0..<rounds {
            let ledger = try Ledger(path: workspace.appendingPathComponent("ingest-\(round).sqlite").path)
            ingests = max(ingests, try operationsPerSecond(count: items.count) {
                for item in items { try BenchTransactionSupply.ingest(item, into: ledger) }
            })
            let reference = try Database(path: workspace.appendingPathComponent("reference-\(round).sqlite").path)
            try reference.write { try $0.execute(ReferenceTransactionRow.sqliteTable) }
            let storedDate = Date().millisecondsSince1970
            inserts = max(inserts, try operationsPerSecond(count: items.count) {
                for item in items {
                    try reference.write { try ReferenceTransactionRow(item: item, storedDate: storedDate).insert(into: $0) }
                }
            })
        }
        figures.ingestsPerSecond = ingests
        figures.sqliteInsertsPerSecond = inserts
        figures.ingestToSQLiteInsertRatio = ingests / inserts
    }
}
