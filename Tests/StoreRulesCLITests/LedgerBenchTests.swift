import Foundation
import Testing

/// The ledger section of `storerules bench`.
@Suite struct LedgerBenchTests {
    @Test func aPostgreSQLServerThatCannotBeReachedFailsItsSectionAfterTheOtherFigures() throws {
        let result = try CommandRunner.run(
            ["bench", "--json", "--quick", "--sections", "decisions,ledger", "--iterations", "100",
             "--postgres", "postgresql://postgres@127.0.0.1:1/postgres?connect_timeout=2"])
        #expect(result.status == 1, "\(result.standardError)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let failure = try #require(figures["postgres_failed"] as? String)
        #expect(!failure.isEmpty)
        #expect(figures["postgres_ingest_to_insert_ratio"] == nil)
        for key in ["ledger_ingests_per_second", "sqlite_inserts_per_second", "ledger_ingest_to_sqlite_insert_ratio",
                    "sqlite_reads_per_second_alone", "sqlite_reads_per_second_beside_writes", "sqlite_reads_beside_writes_ratio"] {
            let value = try #require(figures[key] as? Double, "\(key)")
            #expect(value > 0, "\(key)")
        }
        #expect(figures["engine_ns_per_decision"] is Double)
    }

    @Test func withoutAServerThePostgreSQLSectionIsSkippedWithANote() throws {
        let result = try CommandRunner.run(
            ["bench", "--quick", "--sections", "ledger"], environment: ["STORERULES_BENCH_POSTGRES_URL": ""])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("The ledger on SQLite (write-ahead log, synchronous=FULL; best of 1 round of"))
        #expect(result.standardOutput.contains("(40 transactions)"))
        #expect(result.standardOutput.contains("The ledger on PostgreSQL: skipped (no server: pass --postgres URL"))
    }
}
