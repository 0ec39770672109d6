import Foundation
import StoreCore
import StorePolicy

/// The operator page, `GET /admin` (and, from a ledger alone, `storerules ledger metrics --html`):
/// one self-contained, read-only HTML page of what the service and its ledger look like now —
/// the subscription metrics, the policy serving and its history, the decisions of the last hour and day with their latest failures, what waits, and
/// the experiments. No script, no form, nothing from outside: the style is inline, the charts
/// SVG, and ``contentSecurityPolicy`` allows nothing else. Every text is escaped.
public enum OperatorPage {
    /// The `Content-Security-Policy` the page is served with: nothing may load or run, styles
    /// written in the page and `data:` images excepted; no form may post and no page may frame it.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The same policy as the page states it in a `<meta>` element, which keeps it when the
    /// page is saved to a file (a `<meta>` policy cannot say `frame-ancestors`).
    static let metaContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

    /// The page for `facts`. `subscriptionMetrics` is the subscription metrics' section (its
    /// cards and charts, HTML made by StoreRules), shown first; nil leaves it out.
    static func render(_ facts: OperatorPageFacts, subscriptionMetrics: String?) -> String {
        var main = ""
        if let subscriptionMetrics {
            main += "<section id=\"metrics\"><h2>Subscriptions</h2>\(subscriptionMetrics)</section>"
        }
        main += policySection(facts)
        main += decisionsSection(facts.decisions)
        main += waitingSection(facts.waiting, now: facts.readAt)
        main += experimentsSection(facts.experiments, linked: facts.source == .service)
        var links = subscriptionMetrics == nil ? [] : [("metrics", "Subscriptions")]
        links += [("policy", "Policy"), ("decisions", "Decisions"), ("waiting", "What waits")]
        if !facts.experiments.isEmpty { links.append(("experiments", "Experiments")) }
        let navigation = links.map { "<a href=\"#\($0.0)\">\($0.1)</a>" }.joined()
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="\(metaContentSecurityPolicy)">
        <title>StoreRules operator page</title><style>\(OperatorPageStyle.css)\(SubscriptionMetricsHTML.style)</style></head>
        <body><header><h1>StoreRules</h1><p class="meta">\(escape(origin(of: facts))) · read \
        \(escape(time(facts.readAt))) · read-only</p><nav>\(navigation)</nav></header>
        <main>\(main)</main></body></html>
        """
    }

    /// The same page drawn away from a service, by `storerules ledger metrics --html`: the
    /// subscription figures `metrics`, what waits in `ledger` (named `name`) and its
    /// experiments, with `engine`'s policy when one is given; decisions and the policy's history,
    /// which only a running service knows, are said to be there.
    public static func render(ledger: Ledger, named name: String, metrics: SubscriptionMetrics, engine: PolicyEngine?,
                              log: (String) -> Void) -> String {
        render(OperatorPageFacts.read(ledger: ledger, named: name, engine: engine, log: log),
               subscriptionMetrics: SubscriptionMetricsHTML.section(metrics))
    }

    /// Where the page's facts come from, as its header says: the policy serving, or the ledger
    /// a command read.
    private static func origin(of facts: OperatorPageFacts) -> String {
        switch facts.source {
        case .service: return "policy " + (facts.policy.map { short($0.version) } ?? "none")
        case .ledger(let name): return "ledger \(name)" + (facts.policy.map { ", policy \(short($0.version))" } ?? "")
        }
    }

    /// `text` with the characters HTML gives a meaning written as entities.
    static func escape(_ text: String) -> String {
        HTMLText.escape(text)
    }

    /// `date` as the page writes times: `2026-12-04 10:15:02 UTC`.
    static func time(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date).replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
    }

    /// How long before `now` `date` was, in the largest whole unit: `45 s`, `12 min`, `3 h`, `2 d`.
    static func age(of date: Date, at now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "\(seconds) s"
        case ..<3600: return "\(seconds / 60) min"
        case ..<86400: return "\(seconds / 3600) h"
        default: return "\(seconds / 86400) d"
        }
    }

    /// A version as the page shows it: its first 12 characters.
    static func short(_ version: String) -> String {
        String(version.prefix(12))
    }

    /// A card: a figure and its label, `attention` when the figure asks for a look.
    static func card(_ figure: String, _ label: String, attention: Bool = false) -> String {
        "<div class=\"card\(attention ? " attention" : "")\"><b>\(escape(figure))</b><span>\(escape(label))</span></div>"
    }

    /// A table with `headers` and `rows` of cells already escaped, in a box that scrolls
    /// sideways on a narrow screen; `empty` when there are no rows.
    static func table(_ headers: [String], _ rows: [[String]], empty: String) -> String {
        guard !rows.isEmpty else { return "<p class=\"empty\">\(escape(empty))</p>" }
        let head = headers.map { "<th>\(escape($0))</th>" }.joined()
        let body = rows.map { "<tr>" + $0.map { "<td>\($0)</td>" }.joined() + "</tr>" }.joined()
        return "<div class=\"scroll\"><table><thead><tr>\(head)</tr></thead><tbody>\(body)</tbody></table></div>"
    }
}
