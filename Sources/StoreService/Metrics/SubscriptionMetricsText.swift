import Foundation
import StoreCore

/// Subscription metrics as text for a terminal: one line per interval with the counts, then
/// each currency's money per interval; the same for each group of a grouped report.
public enum SubscriptionMetricsText {
    /// The figures of `metrics`, a line per interval; then, when grouped, each group's.
    public static func render(_ metrics: SubscriptionMetrics) -> String {
        var lines = ["Subscriptions by \(metrics.interval.rawValue), as of \(metrics.asOf.formatted(.iso8601))"
                     + (metrics.environment.map { ", \($0) only" } ?? "") + (metrics.customerID.map { ", customer \($0)'s share" } ?? "")
                     + "; periods from the \(metrics.periodSource)"]
        lines += tables(metrics.intervals)
        if !metrics.currenciesLeftOut.isEmpty {
            lines.append("")
            lines.append("Left out for want of a rate: \(metrics.currenciesLeftOut.joined(separator: ", "))")
        }
        if let grouping = metrics.grouping {
            for group in metrics.groups {
                lines.append("")
                lines.append("\(groupTitle(grouping)) \(groupName(group))")
                lines += tables(group.intervals)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `Product` or `Storefront`, as a group's heading starts.
    static func groupTitle(_ grouping: SubscriptionMetricsGrouping) -> String {
        switch grouping {
        case .product: "Product"
        case .storefront: "Storefront"
        }
    }

    /// A group's name as text and the page show it: `(none given)` for the transactions whose
    /// payloads named no storefront.
    static func groupName(_ group: SubscriptionMetrics.Group) -> String {
        group.name.isEmpty ? "(none given)" : group.name
    }

    /// The counts per interval, then each currency's money per interval.
    private static func tables(_ intervals: [SubscriptionMetrics.Interval]) -> [String] {
        var lines = [row(["start", "active", "trials", "new cust", "new trials", "ended", "conv", "new paid", "renewals",
                          "upgrades", "changes", "churned", "churn", "refunds"])]
        for interval in intervals {
            lines.append(row([day(interval.start), "\(interval.activeSubscriptions)", "\(interval.activeTrials)", "\(interval.newCustomers)",
                              "\(interval.newTrials)", "\(interval.trialsEnded)", "\(interval.trialsConverted)",
                              "\(interval.newPaidSubscriptions)", "\(interval.renewals)", "\(interval.upgrades)",
                              "\(interval.productChangesAtRenewal)", "\(interval.churnedSubscriptions)", percent(interval.churnRate),
                              "\(interval.refunds)"]))
        }
        for currency in Set(intervals.flatMap(\.money.keys)).sorted() {
            lines.append("")
            lines.append("Money in \(currency)")
            lines.append(row(["start", "MRR", "new", "reactiv.", "expansion", "contraction", "churn", "subs revenue", "other", "refunded"]))
            for interval in intervals {
                let money = interval.money[currency] ?? .init()
                lines.append(row([day(interval.start)] + [money.mrr, money.mrrNew, money.mrrReactivation, money.mrrExpansion,
                                                          money.mrrContraction, money.mrrChurn, money.subscriptionRevenue,
                                                          money.nonSubscriptionRevenue, money.refunded].map(amount)))
            }
        }
        return lines
    }

    private static func row(_ cells: [String]) -> String {
        cells.enumerated().map { index, cell in
            index == 0 ? cell.padding(toLength: 11, withPad: " ", startingAt: 0) : String(repeating: " ", count: max(0, 11 - cell.count)) + cell
        }.joined(separator: " ")
    }

    private static func day(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day())
    }

    private static func amount(_ value: Double) -> String { value.formatted(.number.precision(.fractionLength(2)).grouping(.never)) }

    private static func percent(_ value: Double?) -> String {
        value.map { ($0 * 100).formatted(.number.precision(.fractionLength(1))) + "%" } ?? "–"
    }
}
