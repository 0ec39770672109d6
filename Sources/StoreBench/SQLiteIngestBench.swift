import Foundation
import StoreCore
import SQLiteLedger

/// Durable ingests per second into a SQLite ledger against raw inserts of the same rows at the
/// same durability.
public enum SQLiteIngestBench {
    /// Ingests and inserts taken in turn within a round, so both meet the disk in the same state.
    static let chunkSize = 20

    /// Measures, in `scale`'s rounds on new files in `workspace`, durable ingests per second
    /// into a SQLite ledger against inserts per second of the same transactions as reference
    /// rows through `Database` at the same durability (write-ahead log, `synchronous=FULL`), one
    /// `BEGIN IMMEDIATE … COMMIT` each. Within a round, chunks of ingests and of inserts
    /// alternate, since a disk's sync time drifts; the figures are each side's best round, and
    /// the ratio the median of the rounds' own ratios. Each round ingests `scale`'s ledger
    /// ingests and inserts as many reference rows.
    static func measure(_ supply: BenchTransactionSupply, scale: BenchScale, workspace: URL,
                        into figures: inout LedgerBenchFigures) throws {
        let items = Array(supply.slice(from: 0, count: scale.ledgerIngests))
        let clock = ContinuousClock()
        var ingests = 0.0
        var inserts = 0.0
        var ratios: [Double] = []
        for round in 0..<scale.ledgerRounds {
            let ledger = try Ledger(path: workspace.appendingPathComponent("ingest-\(round).sqlite").path)
            let reference = try Database(path: workspace.appendingPathComponent("reference-\(round).sqlite").path)
            try reference.write {
                for statement in ReferenceTransactionRow.table.createStatements(in: .sqlite) { try $0.execute(statement) }
            }
            let storedDate = Date().millisecondsSince1970
            var ingestTime = Duration.zero
            var insertTime = Duration.zero
            for start in stride(from: 0, to: items.count, by: chunkSize) {
                let chunk = items[start..<min(start + chunkSize, items.count)]
                ingestTime += try clock.measure {
                    for item in chunk { try BenchTransactionSupply.ingest(item, into: ledger) }
                }
                insertTime += try clock.measure {
                    for item in chunk {
                        try reference.write { try ReferenceTransactionRow(item: item, storedDate: storedDate).insert(into: $0) }
                    }
                }
            }
            let roundIngests = Double(items.count) / ingestTime.seconds
            let roundInserts = Double(items.count) / insertTime.seconds
            ingests = max(ingests, roundIngests)
            inserts = max(inserts, roundInserts)
            ratios.append(roundIngests / roundInserts)
        }
        figures.ingestsPerSecond = ingests
        figures.sqliteInsertsPerSecond = inserts
        figures.ingestToSQLiteInsertRatio = ratios.sorted()[ratios.count / 2]
    }
}
