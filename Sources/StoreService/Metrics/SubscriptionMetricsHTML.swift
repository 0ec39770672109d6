import Foundation
import StoreCore

/// Subscription metrics as HTML made by StoreRules alone: overview cards of the last interval
/// and of the whole report, and SVG charts per interval (subscriptions and trials, MRR, MRR
/// movement, revenue and refunds, churn and trial conversion), and a grouped report's table per
/// product or storefront. No script, font or style from
/// outside: ``page(_:title:)`` carries its style inline; ``section(_:)`` is the part the
/// operator page embeds.
public enum SubscriptionMetricsHTML {
    /// A whole page of `metrics`.
    public static func page(_ metrics: SubscriptionMetrics, title: String = "Subscriptions") -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLText.escape(title))</title><style>\(pageStyle)\(style)</style></head>
        <body><main><h1>\(HTMLText.escape(title))</h1>\(section(metrics))</main></body></html>
        """
    }

    /// The cards and charts of `metrics`, to place in a page whose style includes ``style``.
    public static func section(_ metrics: SubscriptionMetrics) -> String {
        guard let last = metrics.intervals.last else { return "<p>No interval.</p>" }
        let currencies = Self.currencies(of: metrics)
        let main = currencies.first
        var html = "<p class=\"scope\">\(HTMLText.escape(scope(of: metrics)))</p><div class=\"cards\">"
        html += card("Active subscriptions", "\(last.activeSubscriptions)", note: "grace period counted, billing retry not")
        html += card("Active trials", "\(last.activeTrials)")
        for currency in currencies {
            html += card("MRR (\(currency))", money(last.money[currency]?.mrr ?? 0))
            let revenue = metrics.intervals.reduce(0.0) { $0 + ($1.money[currency].map { $0.subscriptionRevenue + $0.nonSubscriptionRevenue } ?? 0) }
            html += card("Revenue (\(currency))", money(revenue), note: "over the report")
        }
        html += card("New customers", "\(metrics.intervals.reduce(0) { $0 + $1.newCustomers })", note: "over the report")
        let ended = metrics.intervals.reduce(0) { $0 + $1.trialsEnded }, converted = metrics.intervals.reduce(0) { $0 + $1.trialsConverted }
        html += card("Trial conversion", ended > 0 ? percent(Double(converted) / Double(ended)) : "–", note: "\(converted) of \(ended) trials ended")
        html += card("Churn rate", last.churnRate.map(percent) ?? "–", note: "the last \(metrics.interval.rawValue)")
        html += "</div>"
        let labels = metrics.intervals.map { label($0.start, metrics.interval) }
        html += "<div class=\"charts\">"
        html += SubscriptionMetricsChart.lines([
            .init(name: "active subscriptions", color: "#0a84ff", values: metrics.intervals.map { Double($0.activeSubscriptions) }),
            .init(name: "active trials", color: "#ff9f0a", values: metrics.intervals.map { Double($0.activeTrials) }),
        ], labels: labels, title: "Subscriptions and trials", format: count)
        for currency in currencies {
            html += SubscriptionMetricsChart.lines([
                .init(name: "MRR", color: "#30d158", values: metrics.intervals.map { $0.money[currency]?.mrr ?? 0 }),
            ], labels: labels, title: "MRR (\(currency))", format: money)
        }
        if let main {
            let figure = { (path: KeyPath<SubscriptionMetrics.Money, Double>, sign: Double) in
                metrics.intervals.map { Optional(($0.money[main]?[keyPath: path] ?? 0) * sign) }
            }
            html += SubscriptionMetricsChart.bars([
                .init(name: "new", color: "#30d158", values: figure(\.mrrNew, 1)),
                .init(name: "reactivation", color: "#64d2ff", values: figure(\.mrrReactivation, 1)),
                .init(name: "expansion", color: "#0a84ff", values: figure(\.mrrExpansion, 1)),
                .init(name: "contraction", color: "#ff9f0a", values: figure(\.mrrContraction, -1)),
                .init(name: "churn", color: "#ff453a", values: figure(\.mrrChurn, -1)),
            ], labels: labels, title: "MRR movement (\(main))", format: money)
            html += SubscriptionMetricsChart.bars([
                .init(name: "subscriptions", color: "#0a84ff", values: figure(\.subscriptionRevenue, 1)),
                .init(name: "other purchases", color: "#5e5ce6", values: figure(\.nonSubscriptionRevenue, 1)),
                .init(name: "refunded", color: "#ff453a", values: figure(\.refunded, -1)),
            ], labels: labels, title: "Revenue and refunds (\(main))", format: money)
        }
        html += SubscriptionMetricsChart.lines([
            .init(name: "churn rate", color: "#ff453a", values: metrics.intervals.map(\.churnRate)),
            .init(name: "trial conversion", color: "#30d158", values: metrics.intervals.map(\.trialConversionRate)),
            .init(name: "refund rate", color: "#8e8e93", values: metrics.intervals.map(\.refundRate)),
        ], labels: labels, title: "Rates", format: percent)
        html += "</div>"
        html += groupsTable(metrics, currencies: currencies)
        if !metrics.currenciesLeftOut.isEmpty {
            html += "<p class=\"note\">Left out for want of a rate: \(HTMLText.escape(metrics.currenciesLeftOut.joined(separator: ", "))).</p>"
        }
        return html
    }

    /// A grouped report's table: a row per product or storefront with its figures at the
    /// report's end and over it; nothing for a report without groups.
    private static func groupsTable(_ metrics: SubscriptionMetrics, currencies: [String]) -> String {
        guard let grouping = metrics.grouping else { return "" }
        let title = SubscriptionMetricsText.groupTitle(grouping)
        var html = "<h2>By \(HTMLText.escape(grouping.rawValue))</h2><div class=\"groups\"><table><thead><tr><th>\(title)</th>"
            + "<th>Active subscriptions</th><th>Active trials</th>"
            + currencies.map { "<th>MRR (\(HTMLText.escape($0)))</th><th>Revenue (\(HTMLText.escape($0)))</th>" }.joined()
            + "<th>New customers</th><th>Churned</th></tr></thead><tbody>"
        for group in metrics.groups {
            let last = group.intervals.last
            html += "<tr><th>\(HTMLText.escape(SubscriptionMetricsText.groupName(group)))</th>"
                + "<td>\(last?.activeSubscriptions ?? 0)</td><td>\(last?.activeTrials ?? 0)</td>"
            for currency in currencies {
                let revenue = group.intervals.reduce(0.0) { $0 + ($1.money[currency].map { $0.subscriptionRevenue + $0.nonSubscriptionRevenue } ?? 0) }
                html += "<td>\(money(last?.money[currency]?.mrr ?? 0))</td><td>\(money(revenue))</td>"
            }
            html += "<td>\(group.intervals.reduce(0) { $0 + $1.newCustomers })</td>"
                + "<td>\(group.intervals.reduce(0) { $0 + $1.churnedSubscriptions })</td></tr>"
        }
        return html + "</tbody></table></div>"
    }

    /// The style of ``page(_:title:)`` around the section.
    private static let pageStyle = """
        body{font:15px/1.4 -apple-system,system-ui,sans-serif;margin:0;background:#f2f2f7;color:#1c1c1e}
        main{max-width:1100px;margin:0 auto;padding:16px}
        """

    /// The style ``section(_:)`` is drawn with: its own classes only, so a page embedding the
    /// section keeps its own.
    public static let style = """
        .scope,.note{color:#636366}
        .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(160px,1fr));gap:10px;margin:12px 0}
        .card{background:#fff;border-radius:10px;padding:10px 12px}
        .card .label{font-size:13px;color:#636366}.card .value{font-size:24px;font-weight:600}.card .sub{font-size:12px;color:#8e8e93}
        .charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:10px}
        figure{background:#fff;border-radius:10px;margin:0;padding:10px}figcaption{font-weight:600;margin-bottom:4px}
        figure > svg{width:100%;height:auto}
        .groups{overflow-x:auto}.groups table{border-collapse:collapse;background:#fff;border-radius:10px;font-size:13px}
        .groups th,.groups td{padding:4px 8px;text-align:right;white-space:nowrap}.groups tbody th{text-align:left}
        .legend{list-style:none;padding:0;margin:4px 0 0;display:flex;flex-wrap:wrap;gap:10px;font-size:12px;color:#636366}
        """

    private static func card(_ label: String, _ value: String, note: String? = nil) -> String {
        "<div class=\"card\"><div class=\"label\">\(HTMLText.escape(label))</div><div class=\"value\">\(HTMLText.escape(value))</div>"
            + (note.map { "<div class=\"sub\">\(HTMLText.escape($0))</div>" } ?? "") + "</div>"
    }

    /// The currencies with money in the report, the one with the most MRR at its end first.
    private static func currencies(of metrics: SubscriptionMetrics) -> [String] {
        let all = Set(metrics.intervals.flatMap(\.money.keys))
        let last = metrics.intervals.last?.money ?? [:]
        return all.sorted { (last[$0]?.mrr ?? 0, $1) > (last[$1]?.mrr ?? 0, $0) }
    }

    private static func scope(of metrics: SubscriptionMetrics) -> String {
        guard let first = metrics.intervals.first, let last = metrics.intervals.last else { return "" }
        var text = "By \(metrics.interval.rawValue), \(label(first.start, .day)) to \(label(last.end.addingTimeInterval(-1), .day)), "
            + "as of \(metrics.asOf.formatted(.iso8601))"
        text += metrics.environment.map { ", \($0) only" } ?? ", every environment"
        text += metrics.customerID.map { ", customer \($0)'s share" } ?? ""
        if let currency = metrics.currency { text += ", in \(currency)" }
        return text + "; periods from the \(metrics.periodSource)."
    }

    private static func label(_ date: Date, _ interval: SubscriptionMetricsInterval) -> String {
        let style = Date.ISO8601FormatStyle(timeZone: .gmt).year().month()
        return interval == .month ? date.formatted(style) : date.formatted(style.day())
    }

    private static func count(_ value: Double) -> String { String(Int(value.rounded())) }
    private static func money(_ value: Double) -> String { value.formatted(.number.precision(.fractionLength(2))) }
    private static func percent(_ value: Double) -> String { (value * 100).formatted(.number.precision(.fractionLength(0...1))) + " %" }
}
