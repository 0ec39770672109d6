import Foundation

extension BenchCommand {
    /// The variable naming a PostgreSQL server when `--postgres` is not given.
    static let postgresEnvironmentVariable = "STORERULES_BENCH_POSTGRES_URL"

    /// Measures the ledger: durable ingests on SQLite against raw inserts, reads beside
    /// writes, and — when `postgresURL` names a server — ingests on PostgreSQL against raw
    /// inserts with several writers. A failure on PostgreSQL is recorded in the figures, beside
    /// the others.
    static func measureLedger(postgresURL: String?) throws -> LedgerBenchFigures {
        let supply = try BenchTransactionSupply(
            count: max(sqliteIngestCount, readsSupplyCount, postgresURL == nil ? 0 : postgresSupplyCount))
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("storerules-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: workspace) }
        var figures = LedgerBenchFigures()
        try measureSQLiteIngest(supply, workspace: workspace, into: &figures)
        try measureReadsBesideWrites(supply, workspace: workspace, into: &figures)
        if let postgresURL {
            do {
                figures.postgres = try measurePostgresIngest(supply, serverURL: postgresURL)
            } catch {
                figures.postgresFailed = "\(error)"
            }
        } else {
            figures.postgresSkipped = "no server: pass --postgres URL or set \(postgresEnvironmentVariable)"
        }
        return figures
    }
}
