import Foundation
import Testing
import TestPrerequisites

/// The service section of `storerules bench`.
@Suite struct PolicyServiceBenchTests {
    /// Every section, as `storerules bench` runs by default, at the quick size; the other tests choose theirs.
    @Test func theBenchLoadTestsTheServiceBesideIt() throws {
        let result = try CommandRunner.run(["bench", "--json", "--quick", "--iterations", "200", "--service-requests", "400", "--http-seconds", "0"])
        #expect(result.status == 0, "\(result.standardError)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(figures["service_requests"] as? Int == 401)
        #expect(figures["service_failed_requests"] as? Int == 0)
        let rate = try #require(figures["service_requests_per_second"] as? Double)
        let p50 = try #require(figures["service_p50_ms"] as? Double)
        let p99 = try #require(figures["service_p99_ms"] as? Double)
        #expect(rate > 0)
        #expect(p50 > 0 && p50 <= p99)
        #expect(figures["service_skipped"] == nil)
        for figure in ["engine_ns_per_decision", "storefront_plan_to_hooks_ratio", "reload_ms", "verifications_per_second",
                       "jwt_signs_per_second", "ledger_ingests_per_second", "sqlite_reads_per_second_alone"] {
            #expect((figures[figure] as? Double ?? 0) > 0, "every section runs when none is chosen: \(figure)")
        }
        let report = try #require((figures["experiment_report"] as? [[String: Any]])?.first, "\(figures.keys.sorted())")
        #expect(report["customers"] as? Int == 1_000 && report["transactions"] as? Int == 10_000, "the quick size: \(report)")
        let ingests = try #require((figures["outgoing_event_ingests"] as? [[String: Any]])?.first, "\(figures.keys.sorted())")
        #expect(ingests["notifications"] as? Int == 20 * 12, "\(ingests)")
        #expect(figures["sqlite_rounds"] as? Int == 1 && figures["sqlite_ingests_per_round"] as? Int == 40, "the ledger's quick size")
        #expect(figures["outgoing_events_failed"] == nil && figures["experiment_report_failed"] == nil)
    }

    @Test func withoutAServiceBinaryBesideItTheSectionIsSkippedWithANote() throws {
        let directory = try TestFolders.make("bench-alone")
        defer { try? FileManager.default.removeItem(at: directory) }
        let alone = directory.appendingPathComponent("storerules")
        try FileManager.default.copyItem(at: CommandRunner.executable, to: alone)

        let process = Process()
        process.executableURL = alone
        process.arguments = ["bench", "--sections", "service,http", "--http-seconds", "0"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let note = try #require(text.split(separator: "\n").first { $0.hasPrefix("PolicyService under load") })
        #expect(note.hasPrefix("PolicyService under load: skipped (no PolicyService binary beside storerules"))
        #expect(text.split(separator: "\n").last == "storerules serve under wrk: skipped (--http-seconds 0)")
    }
}
