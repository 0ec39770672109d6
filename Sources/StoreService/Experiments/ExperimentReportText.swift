/// The report as `storerules experiments report` prints it for people: per phase the split
/// and its sample-ratio check first, the notes, then per horizon matured so far each metric's
/// means and each variant against control, sequential first and fixed-horizon below it.
public enum ExperimentReportText {
    /// The report's text.
    public static func render(_ report: ExperimentReport) -> String {
        var lines = ["Experiments as of \(report.asOf): 95 % intervals, sequential (read this one; valid however often you look) and "
                     + "fixed-horizon (valid for one look at a horizon set in advance); * marks an interval that excludes 0."]
        if report.experiments.isEmpty { lines.append("No experiment in the policy or the ledger.") }
        for experiment in report.experiments {
            for phase in experiment.phases {
                lines.append("")
                lines += phaseLines(experiment, phase, report: report)
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func phaseLines(_ experiment: ExperimentReport.Experiment, _ phase: ExperimentReport.Phase,
                                   report: ExperimentReport) -> [String] {
        var lines = ["\(experiment.name), phase \(phase.phase)\(phase.isServing ? " (serving)" : "")\(experiment.isDeclared ? "" : " (no longer declared)")"
                     + ": traffic \(phase.traffic) %, weights from the \(phase.weightsSource.rawValue)"]
        for variant in phase.variants {
            lines.append("  \(variant.variant): weight \(variant.weight) (\(ExperimentReportFormat.share(variant.expectedShare))), "
                         + "\(variant.exposedCustomers) exposed (\(ExperimentReportFormat.share(variant.observedShare)))")
        }
        let check = phase.sampleRatio
        lines.append(check.isMismatch
            ? "  SAMPLE-RATIO MISMATCH: p = \(ExperimentReportFormat.pValue(check.pValue)) < \(check.threshold); the split is broken and no figure below is to be trusted"
            : "  Sample-ratio check: p = \(ExperimentReportFormat.pValue(check.pValue)) (flagged below \(check.threshold)): the split is sound")
        for note in phase.notes where note.kind != .sampleRatioMismatch {
            lines.append("  Note: \(note.message)")
        }
        for horizon in phase.horizons {
            guard horizon.hasMaturedCustomers else {
                lines.append("  \(horizon.days) days: no customer has matured yet")
                continue
            }
            let matured = horizon.maturedCustomers.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append("  \(horizon.days) days (matured: \(matured))\(horizon.isTrustworthy ? "" : " — not a result yet, see the notes")")
            if !horizon.currenciesLeftOut.isEmpty {
                lines.append("    revenue leaves out \(horizon.currenciesLeftOut.joined(separator: ", ")): no rate given")
            }
            for metric in horizon.metrics {
                lines += metricLines(metric)
            }
        }
        return lines
    }

    private static func metricLines(_ metric: ExperimentReport.Metric) -> [String] {
        let means = metric.variants.map { "\($0.variant) \(ExperimentReportFormat.mean($0.mean, of: metric))" }.joined(separator: ", ")
        var lines = ["    \(metric.title): \(means)"]
        for comparison in metric.comparisons {
            let absolute = { (value: Double) in ExperimentReportFormat.absolute(value, of: metric) }
            lines.append("      \(comparison.variant) vs control, sequential:    "
                         + ExperimentReportFormat.result(comparison.relative.sequential, ExperimentReportFormat.relative)
                         + "; " + ExperimentReportFormat.result(comparison.absolute.sequential, absolute))
            lines.append("      \(comparison.variant) vs control, fixed-horizon: "
                         + ExperimentReportFormat.result(comparison.relative.fixedHorizon, ExperimentReportFormat.relative)
                         + "; " + ExperimentReportFormat.result(comparison.absolute.fixedHorizon, absolute))
        }
        return lines
    }
}
