import Foundation

extension OperatorPage {
    /// The sources a decision comes from, in the order the page shows them.
    static let decisionSources = ["policy", "default", "fallback"]

    /// The decisions of the last hour and the last day by hook and source — decided by the
    /// policy, the default for a hook it lacks, the fallback after a failure — and the latest
    /// failures with their reason and policy line.
    static func decisionsSection(_ decisions: RecentDecisions.Summary?) -> String {
        guard let decisions else {
            return "<section id=\"decisions\"><h2>Decisions</h2><p class=\"empty\">Decisions are counted by a running service, "
                + "in memory: its page (<code>GET /admin</code>) shows them.</p></section>"
        }
        var html = "<section id=\"decisions\"><h2>Decisions</h2><div class=\"cards\">"
        let hourTotal = decisions.lastHour.values.reduce(0, +)
        let hourFallbacks = decisions.lastHour.filter { $0.key.source == "fallback" }.values.reduce(0, +)
        html += card(String(hourTotal), "decisions in the last hour")
        html += card(String(hourFallbacks), "fallbacks in the last hour", attention: hourFallbacks > 0)
        html += card(String(decisions.lastDay.values.reduce(0, +)), "decisions in the last day")
        html += "</div>"
        let hooks = Set(decisions.lastDay.keys.map(\.hook)).sorted()
        let rows = hooks.map { hook in
            [escape(hook)] + [decisions.lastHour, decisions.lastDay].flatMap { counts in
                decisionSources.map { source in
                    let count = counts[RecentDecisions.Key(hook: hook, source: source)] ?? 0
                    return source == "fallback" && count > 0 ? "<span class=\"bad\">\(count)</span>" : String(count)
                }
            }
        }
        let headers = ["Hook"] + ["hour", "day"].flatMap { span in decisionSources.map { "\($0) (\(span))" } }
        html += table(headers, rows, empty: "No decision in the last day.")
        html += "<h3>Latest failures</h3>"
        let failures = decisions.failures.map { failure in
            [escape(time(failure.time)), escape(failure.hook), "<span class=\"reason\">\(escape(failure.reason))</span>",
             failure.policyVersion.map { "<code>\(escape(short($0)))</code>" } ?? "", escape(failure.requestID ?? "")]
        }
        html += table(["Time", "Hook", "Reason (policy line)", "Version", "Request"], failures, empty: "No decision failed since the start.")
        return html + "</section>"
    }
}
