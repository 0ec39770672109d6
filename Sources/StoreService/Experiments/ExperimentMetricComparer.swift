import StoreCore
import StorePolicy
import StoreStatistics

/// Turns a horizon's aggregates into the report's metrics: each variant's mean and each
/// variant against control, the absolute and relative difference by the sequential and the
/// fixed-horizon test. Shares (a trial started, paid, converted, refunded) are compared as
/// proportions, revenue as means of any value.
enum ExperimentMetricComparer {
    /// The significance level of every interval: 95 % intervals.
    static let alpha = 0.05

    /// The metrics of one horizon: the four shares, then net revenue per currency, capped and uncapped.
    static func metrics(of aggregates: ExperimentAggregates) -> [ExperimentReport.Metric] {
        let shares: [(String, KeyPath<ExperimentVariantAggregates, ExperimentMetricSums>)] = [
            ("started_trial", \.startedTrial), ("paid", \.paid), ("converted_trial_to_paid", \.convertedTrialToPaid), ("refunded", \.refunded),
        ]
        var metrics = shares.map { name, path in
            metric(name, currency: nil, cap: nil, aggregates.variants.map { ($0.variant, $0[keyPath: path]) }) { sums in
                ProportionSummary(count: sums.count, successes: sums.sum)
            }
        }
        let currencies = Set(aggregates.variants.flatMap(\.netRevenue.keys)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for currency in currencies {
            let zero = ExperimentMetricSums(count: 0, sum: 0, sumOfSquares: 0)
            let capped = aggregates.variants.map { ($0.variant, $0.netRevenue[currency]?.capped ?? zero) }
            let uncapped = aggregates.variants.map { ($0.variant, $0.netRevenue[currency]?.uncapped ?? zero) }
            metrics.append(metric("net_revenue", currency: currency, cap: aggregates.revenueCaps[currency] ?? 0, capped, summary))
            metrics.append(metric("net_revenue", currency: currency, cap: nil, uncapped, summary))
        }
        return metrics
    }

    private static func summary(_ sums: ExperimentMetricSums) -> SampleSummary {
        SampleSummary(count: sums.count, sum: sums.sum, sumOfSquares: sums.sumOfSquares)
    }

    /// One metric from each variant's sums, every variant but control compared with control.
    private static func metric<Summary: MetricSummary>(_ name: String, currency: String?, cap: Double?,
                                                       _ sums: [(variant: String, sums: ExperimentMetricSums)],
                                                       _ summary: (ExperimentMetricSums) -> Summary) -> ExperimentReport.Metric {
        let summaries = sums.map { (variant: $0.variant, summary: summary($0.sums)) }
        let control = summaries.first { $0.variant == ExperimentDeclaration.controlVariant }
        let comparisons = control.map { control in
            summaries.filter { $0.variant != control.variant }.map { treatment in
                ExperimentReport.Comparison(variant: treatment.variant,
                                            absolute: tests(control.summary, treatment.summary, .absolute),
                                            relative: tests(control.summary, treatment.summary, .relative))
            }
        } ?? []
        return ExperimentReport.Metric(
            metric: name, currency: currency, cap: cap,
            variants: summaries.map { ExperimentReport.VariantMean(variant: $0.variant, customers: $0.summary.count, mean: $0.summary.mean) },
            comparisons: comparisons)
    }

    private static func tests<Summary: MetricSummary>(_ control: Summary, _ treatment: Summary,
                                                      _ difference: DifferenceKind) -> ExperimentReport.Tests {
        ExperimentReport.Tests(
            sequential: ExperimentReport.TestResult(SequentialTest.compare(control: control, treatment: treatment, difference: difference, alpha: alpha)),
            fixedHorizon: ExperimentReport.TestResult(FixedHorizonTest.compare(control: control, treatment: treatment, difference: difference, alpha: alpha)))
    }
}
