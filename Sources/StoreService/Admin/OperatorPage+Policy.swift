import Foundation

extension OperatorPage {
    /// The policy serving — its version, when and whence it was loaded, its hooks, the problem
    /// of a reload or release that failed — and its history since the start: each load and
    /// each failure, newest first.
    static func policySection(_ facts: OperatorPageFacts) -> String {
        guard let policy = facts.policy else {
            return "<section id=\"policy\"><h2>Policy</h2><p class=\"empty\">No policy was given: "
                + "<code>storerules ledger metrics DIR --html OUT</code> shows the one in DIR.</p></section>"
        }
        guard facts.source == .service else {
            return "<section id=\"policy\"><h2>Policy</h2><dl><dt>Version</dt><dd><code>\(escape(policy.version))</code></dd>"
                + "<dt>Hooks</dt><dd>\(escape(policy.hooks.joined(separator: ", ")))</dd></dl>"
                + "<p class=\"empty\">The policy given to the command; a running service's page shows what it serves and its history.</p></section>"
        }
        var html = "<section id=\"policy\"><h2>Policy</h2><div class=\"cards\">"
        html += card(String(policy.version.prefix(8)), "version serving")
        html += card(age(of: policy.loadedAt, at: facts.readAt), "since it was loaded")
        html += card(String(policy.reloads), "reloads since the start")
        let failures = facts.policyHistory.filter { !$0.loaded }.count
        html += card(String(failures), "loads that failed", attention: failures > 0)
        html += "</div><dl><dt>Version</dt><dd><code>\(escape(policy.version))</code></dd>"
        html += "<dt>Loaded</dt><dd>\(escape(time(policy.loadedAt)))</dd>"
        if let origin = facts.policyHistory.first(where: \.loaded)?.origin {
            html += "<dt>From</dt><dd>\(escape(origin))</dd>"
        }
        html += "<dt>Hooks</dt><dd>\(escape(policy.hooks.joined(separator: ", ")))</dd></dl>"
        if let problem = policy.problem {
            html += "<p class=\"problem\">\(escape(problem))</p>"
        }
        html += "<h3>History since the start</h3>"
        let rows = facts.policyHistory.map { event in
            [escape(time(event.time)),
             event.loaded ? "<span class=\"good\">loaded</span>" : "<span class=\"bad\">failed</span>",
             "<code>\(escape(short(event.version)))</code>", escape(event.origin), escape(event.problem ?? "")]
        }
        html += table(["Time", "Result", "Version serving", "From", "Problem"], rows, empty: "Nothing was loaded since the start.")
        return html + releasesTable(facts) + "</section>"
    }

    /// The fleet's newest releases, each publish and rollback, the one serving here marked;
    /// nothing when the service does not follow releases.
    private static func releasesTable(_ facts: OperatorPageFacts) -> String {
        if facts.releasesUnreadable {
            return "<h3>Releases of the fleet</h3><p class=\"problem\">The releases could not be read; the log says why.</p>"
        }
        guard let releases = facts.releases else { return "" }
        let rows = releases.map { release in
            [String(release.number), escape(release.action.rawValue), "<code>\(escape(short(release.version)))</code>",
             escape(time(release.releasedAt)), release.version == facts.policy?.version ? "<span class=\"good\">serving</span>" : ""]
        }
        return "<h3>Releases of the fleet</h3>"
            + table(["Release", "Action", "Version", "Released", "Here"], rows, empty: "No release yet.")
    }
}
