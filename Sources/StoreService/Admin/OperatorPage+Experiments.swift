import Foundation

extension OperatorPage {
    /// The experiments the policy declares or the ledger recorded, each linking to its report;
    /// nothing when there are none.
    static func experimentsSection(_ experiments: [OperatorPageFacts.Experiment]) -> String {
        guard !experiments.isEmpty else { return "" }
        let rows = experiments.map { experiment in
            let path = "/admin/experiments/" + (experiment.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))
                ?? experiment.name)
            return ["<a href=\"\(escape(path))\">\(escape(experiment.name))</a>",
                    escape(experiment.servingPhase.map { "phase \($0)" } ?? "not declared by the policy serving"),
                    escape(experiment.recordedPhases.joined(separator: ", "))]
        }
        return "<section id=\"experiments\"><h2>Experiments</h2>"
            + table(["Experiment (report)", "Serving", "Phases recorded"], rows, empty: "")
            + "</section>"
    }
}
