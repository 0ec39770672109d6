import Foundation
import StoreBench

extension BenchCommand {
    /// The experiments lines of the table: storefronts with and without an experiment, and
    /// the report at scale on each ledger.
    static func experimentsTable(_ section: ExperimentBenchSection) -> String {
        var lines = ["Experiments"]
        if let storefront = section.storefront, let round = storefront.medianRound {
            let run = { (label: String, run: WrkRun) in
                lines.append("  " + label.padding(toLength: 38, withPad: " ", startingAt: 0)
                             + String(format: "%10.0f /s  p99 %6.2f ms", run.requestsPerSecond, run.p99Milliseconds))
            }
            lines.append("  storefront GETs, the median of \(storefront.rounds.count) rounds (\(storefront.customers) customers in turn):")
            run("without the experiment", round.withoutExperiment)
            run("with it, every customer new to it", round.newCustomers)
            run("with it, every customer returning", round.returningCustomers)
            run("without it again", round.withoutExperimentAfter)
            lines.append("  with / without, customers new         " + String(format: "%10.2f×", storefront.ratio)
                         + String(format: " (goal ≥ %.1f×; %d exposures recorded)", ExperimentBenchSection.storefrontRatioGoal,
                                  storefront.exposuresRecorded))
            lines.append("  with / without, customers returning   " + String(format: "%10.2f×", storefront.returningRatio))
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

    /// The metrics lines of the table: a year by day on each ledger.
    static func metricsTable(_ section: SubscriptionMetricsBenchSection) -> String {
        var lines = ["Subscription metrics"]
        for figures in section.figures {
            lines.append("  a year by day, \(figures.ledger) (\(figures.transactions) transactions)".padding(toLength: 68, withPad: " ", startingAt: 0)
                         + String(format: "%6.2f s (goal ≤ %.0f s; filled in %.0f s)", figures.seconds, SubscriptionMetricsBench.goalSeconds,
                                  figures.fillSeconds))
        }
        if let failed = section.failed { lines.append("  failed: \(failed)") }
        return lines.joined(separator: "\n")
    }

    /// The outgoing events' lines: ingests with events against without, per ledger; delivery.
    static func eventsTable(_ section: OutgoingEventBenchSection) -> String {
        var lines = ["Outgoing events (best of \(BenchRounds.count) alternating rounds)"]
        for figures in section.ingests {
            lines.append("  notification ingests with events / without, \(figures.ledger)".padding(toLength: 68, withPad: " ", startingAt: 0)
                         + String(format: "%6.2f× (goal ≥ %.1f×; %.0f / %.0f a second, %d events)", figures.ratio,
                                  OutgoingEventBench.ingestRatioGoal, figures.withEventsPerSecond, figures.withoutEventsPerSecond,
                                  figures.eventsPerRound))
        }
        if let delivery = section.delivery {
            lines.append("  events delivered to a receiver on loopback".padding(toLength: 68, withPad: " ", startingAt: 0)
                         + String(format: "%6.0f /s (goal ≥ %.0f; %d in %.2f s)", delivery.eventsPerSecond, OutgoingEventBench.deliveryGoal,
                                  delivery.events, delivery.seconds))
        }
        if let failed = section.failed { lines.append("  failed: \(failed)") }
        return lines.joined(separator: "\n")
    }
}
