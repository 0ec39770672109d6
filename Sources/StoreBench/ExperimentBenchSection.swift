import Foundation

/// The experiments section of `storerules bench`: storefront GETs with a running experiment
/// against the same run without one, and the report over a ledger filled at scale on SQLite
/// and, when a server is given, on PostgreSQL; or why each did not run.
public struct ExperimentBenchSection: Sendable, Encodable {
    /// The storefront runs under wrk.
    public var storefront: ExperimentStorefrontFigures?
    /// Why the storefront runs did not happen.
    public var storefrontSkipped: String?
    /// The report's figures, one per ledger.
    public var reports: [ExperimentReportFigures] = []
    /// Why a report run failed.
    public var reportFailed: String?

    private enum CodingKeys: String, CodingKey {
        case storefront = "experiment_storefront", storefrontSkipped = "experiment_storefront_skipped"
        case reports = "experiment_report", reportFailed = "experiment_report_failed"
    }

    /// The goal of the storefront ratio and of the report's time.
    public static let storefrontRatioGoal = ExperimentStorefrontFigures.ratioGoal, reportGoalSeconds = ExperimentReportBench.goalSeconds

    /// Measures both parts: the storefront for `seconds` per run serving `folder` (by default
    /// the Backyard Birds example), the report on SQLite and on the server at `postgresURL`,
    /// over ledgers of `scale`'s size. A failure is recorded as the reason that part did not run.
    public static func measure(seconds: Int, folder: URL?, postgresURL: String?, scale: BenchScale = .full) -> ExperimentBenchSection {
        var section = ExperimentBenchSection()
        if seconds <= 0 {
            section.storefrontSkipped = "--http-seconds 0"
        } else if WrkRun.executable == nil {
            section.storefrontSkipped = "wrk is not installed (apt install wrk)"
        } else if let executable = Bundle.main.executableURL {
            do {
                let bench = try ExperimentStorefrontBench(executable: executable, folder: folder ?? ServiceLoadTest.exampleFolder, seconds: seconds)
                defer { bench.cleanUp() }
                section.storefront = try bench.run()
            } catch {
                section.storefrontSkipped = "failed: \(error)"
            }
        } else {
            section.storefrontSkipped = "this binary's path is unknown"
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storerules-report-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            section.reports.append(try ExperimentReportBench.sqlite(in: directory, customers: scale.filledCustomers))
            if let postgresURL {
                section.reports.append(try ExperimentReportBench.postgres(serverURL: postgresURL, customers: scale.filledCustomers))
            }
        } catch {
            section.reportFailed = "\(error)"
        }
        return section
    }
}
