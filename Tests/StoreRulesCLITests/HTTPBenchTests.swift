import Foundation
import Testing
import TestPrerequisites

/// `storerules bench`'s HTTP section: wrk against `storerules serve`, from a second process.
@Suite struct HTTPBenchTests {
    /// Whether wrk, which the HTTP section runs, is installed.
    static let wrkInstalled = ["/usr/bin/wrk", "/usr/local/bin/wrk"].contains { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("the HTTP section reports storefront GETs and notification ingests with their latencies, none failed",
          .enabled(if: TestPrerequisite.runs(wrkInstalled), "needs wrk (apt install wrk)"))
    func httpSectionReportsItsFigures() throws {
        let result = try CommandRunner.run(
            ["bench", "--json", "--quick", "--sections", "ledger,http", "--http-seconds", "1"],
            environment: ["STORERULES_BENCH_POSTGRES_URL": ""])
        #expect(result.status == 0, "\(result.standardError)")
        let line = try #require(result.standardOutput.split(separator: "\n").last)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let runs = try #require(report["http"] as? [[String: Any]], "the HTTP section did not run: \(report["http_skipped"] ?? "")")
        #expect(runs.count == 1)
        let sqlite = try #require(runs.first)
        #expect(sqlite["ledger"] as? String == "sqlite")
        for route in ["storefront", "notifications"] {
            let figures = try #require(sqlite[route] as? [String: Any])
            #expect((figures["requests_per_second"] as? Double ?? 0) > 0)
            #expect((figures["p99_ms"] as? Double ?? 0) >= (figures["p50_ms"] as? Double ?? 0))
            #expect(figures["non_2xx_responses"] as? Int == 0, "\(route): \(figures)")
            #expect(figures["socket_errors"] as? Int == 0, "\(route): \(figures)")
        }
        let notifications = try #require((sqlite["notifications"] as? [String: Any])?["requests_per_second"] as? Double)
        let ingests = try #require(report["ledger_ingests_per_second"] as? Double)
        let ratio = try #require(report["http_notification_to_ledger_ingest_ratio"] as? Double, "measured in the same run")
        #expect(abs(ratio - notifications / ingests) < 1e-9 * max(1, ratio))
        #expect(report["postgres_storefront_to_sqlite_storefront_ratio"] == nil, "no PostgreSQL run, no ratio")
    }
}
