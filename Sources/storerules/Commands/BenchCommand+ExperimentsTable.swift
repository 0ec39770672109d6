import Foundation
import StoreBench

extension BenchCommand {
    /// The experiments lines of the table: storefronts with and without an experiment, and
    /// the report at scale on each ledger.
    static func experimentsTable(_ section: ExperimentBenchSection) -> String {
        var lines = ["Experiments"]
        if let storefront = section.storefront {
            lines.append("  storefront GETs with an experiment    " + String(format: "%10.0f /s  p99 %6.2f ms",
                         storefront.withExperiment.requestsPerSecond, storefront.withExperiment.p99Milliseconds)
                         + " (\(storefront.exposuresRecorded) exposures recorded for \(storefront.customers) customers)")
            lines.append("  the same without it                   " + String(format: "%10.0f /s  p99 %6.2f ms",
                         storefront.withoutExperiment.requestsPerSecond, storefront.withoutExperiment.p99Milliseconds))
            lines.append("  with / without                        " + String(format: "%10.2f×", storefront.ratio)
                         + String(format: " (goal ≥ %.1f×)", ExperimentBenchSection.storefrontRatioGoal))
        } else {
            lines.append("  storefront GETs: skipped (\(section.storefrontSkipped ?? "not run"))")
        }
        for report in section.reports {
            lines.append("  report, \(report.ledger) (\(report.customers) customers, \(report.transactions) transactions)".padding(
                toLength: 68, withPad: " ", startingAt: 0)
                + String(format: "%6.2f s for %d horizons, %.2f s for one (goal ≤ %.0f s; filled in %.0f s)", report.reportSeconds,
                         report.horizons, report.aggregatesSeconds, ExperimentBenchSection.reportGoalSeconds, report.fillSeconds))
        }
        if let failure = section.reportFailed { lines.append("  report: failed (\(failure))") }
        return lines.joined(separator: "\n")
    }
}
