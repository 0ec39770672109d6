import Foundation

extension BenchCommand {
    /// The ledger lines of the table.
    static func ledgerTable(_ figures: LedgerBenchFigures) -> String {
        func rate(_ value: Double) -> String { String(format: "%10.0f /s", value) }
        func ratio(_ value: Double) -> String { String(format: "%8.2f×", value) }
        let table = """
        The ledger on SQLite (write-ahead log, synchronous=FULL; best of \(rounds) rounds of ingests and inserts in turn, the ratio their median)
          durable ingests                  \(rate(figures.ingestsPerSecond)) (\(sqliteIngestCount) transactions)
          raw inserts of the same rows     \(rate(figures.sqliteInsertsPerSecond)) (one transaction each)
          ingest / raw insert              \(ratio(figures.ingestToSQLiteInsertRatio)) (goal ≥ \
        \(String(format: "%.1f", LedgerBenchFigures.ingestToSQLiteInsertGoal))×)
          customer-state reads, \(readerThreads) threads  \(rate(figures.readsPerSecondAlone))
          … beside one ingesting thread    \(rate(figures.readsPerSecondBesideWrites)) \
        (it ingests \(String(format: "%.0f", figures.ingestsPerSecondBesideReads)) /s)
          reads beside writes / alone      \(ratio(figures.readsBesideWritesRatio))
        """
        if let failure = figures.postgresFailed {
            return table + "\nThe ledger on PostgreSQL: failed: \(failure)"
        }
        guard let postgres = figures.postgres else {
            return table + "\nThe ledger on PostgreSQL: skipped (\(figures.postgresSkipped ?? "not run"))"
        }
        let rows = PostgresLedgerBenchFigures.writerCounts.map { writers in
            let key = String(writers)
            return String(format: "  %-7d %14.0f /s %14.0f /s %12.2f×", writers, postgres.ingestsPerSecond[key] ?? 0,
                          postgres.insertsPerSecond[key] ?? 0, postgres.ingestToInsertRatio[key] ?? 0)
        }
        return table + """

        The ledger on PostgreSQL (best of \(rounds) rounds of \(postgresIngestCount) transactions; \
        synchronous_commit=\(postgres.synchronousCommit), fsync=\(postgres.fsync))
          writers   durable ingests     raw inserts  ingest / insert
        \(rows.joined(separator: "\n"))
        """
    }
}
