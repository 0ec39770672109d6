import Foundation

extension OperatorPage {
    /// The experiments the policy declares or the ledger recorded, each linking to its report
    /// on a service's page (away from one, `storerules experiments report` is named instead);
    /// nothing when there are none.
    static func experimentsSection(_ experiments: [OperatorPageFacts.Experiment], linked: Bool) -> String {
        guard !experiments.isEmpty else { return "" }
        let rows = experiments.map { experiment in
            let path = "/admin/experiments/" + (experiment.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))
                ?? experiment.name)
            let name = linked ? "<a href=\"\(escape(path))\">\(escape(experiment.name))</a>" : escape(experiment.name)
            return [name,
                    escape(experiment.servingPhase.map { "phase \($0)" } ?? "not declared by the policy serving"),
                    escape(experiment.recordedPhases.joined(separator: ", "))]
        }
        return "<section id=\"experiments\"><h2>Experiments</h2>"
            + table([linked ? "Experiment (report)" : "Experiment", "Serving", "Phases recorded"], rows, empty: "")
            + (linked ? "" : "<p class=\"empty\"><code>storerules experiments report DIR --ledger URL --html OUT</code> draws each one's results.</p>")
            + "</section>"
    }
}
