import Foundation

/// The ledger section of `storerules bench`: durable ingests on SQLite against raw inserts,
/// reads beside writes, and ingests on PostgreSQL against raw inserts.
public enum LedgerBench {
    /// The variable naming a PostgreSQL server when `--postgres` is not given.
    public static let postgresEnvironmentVariable = "STORERULES_BENCH_POSTGRES_URL"

    /// Measures the ledger: durable ingests on SQLite against raw inserts, reads beside
    /// writes, and — when `postgresURL` names a server — ingests on PostgreSQL against raw
    /// inserts with several writers. A failure on PostgreSQL is recorded in the figures, beside
    /// the others.
    ///
    /// The SQLite figures take `scale`'s rounds and ingests.
    ///
    /// - Throws: ``BenchFailure`` or the ledger's error when a SQLite figure cannot be measured.
    public static func measure(postgresURL: String?, scale: BenchScale = .full) throws -> LedgerBenchFigures {
        let supply = try BenchTransactionSupply(
            count: max(scale.ledgerIngests, ReadsBesideWritesBench.supplyCount(scale),
                       postgresURL == nil ? 0 : PostgresIngestBench.supplyCount))
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("storerules-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: workspace) }
        var figures = LedgerBenchFigures()
        figures.sqliteRounds = scale.ledgerRounds
        figures.sqliteIngestsPerRound = scale.ledgerIngests
        try SQLiteIngestBench.measure(supply, scale: scale, workspace: workspace, into: &figures)
        try ReadsBesideWritesBench.measure(supply, scale: scale, workspace: workspace, into: &figures)
        if let postgresURL {
            do {
                figures.postgres = try PostgresIngestBench.measure(supply, serverURL: postgresURL)
            } catch {
                figures.postgresFailed = "\(error)"
            }
        } else {
            figures.postgresSkipped = "no server: pass --postgres URL or set \(postgresEnvironmentVariable)"
        }
        return figures
    }
}
