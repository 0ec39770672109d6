import StoreCore

/// Renders an ``ExperimentReport`` as one self-contained HTML page a product person reads:
/// per phase the split and its sample-ratio check first, then per horizon matured so far each
/// metric's difference from control and its 95 % interval drawn as a chart, the numbers beside.
/// No script, no outside font or style; every text from the report is escaped.
public enum ExperimentReportHTML {
    /// The page for `report`, titled `title`.
    public static func render(_ report: ExperimentReport, title: String) -> String {
        var body = "<header><h1>\(escape(title))</h1><p class=\"meta\">as of <b>\(escape(report.asOf))</b> · 95 % intervals · "
        body += "the chart shows the <b>sequential</b> interval of the relative difference from control, valid however often the "
        body += "report is read; the fixed-horizon figures are beside it. Revenue is capped at the "
        body += "\(escape(format(report.revenueCapPercentile)))th percentile, the uncapped figure listed after it.</p></header><main>"
        if report.experiments.isEmpty {
            body += "<p class=\"empty\">No experiment in the policy or the ledger.</p>"
        }
        for experiment in report.experiments {
            for phase in experiment.phases {
                body += phaseSection(experiment, phase)
            }
        }
        body += "</main>"
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <style>\(style)</style></head>
        <body>\(body)</body></html>
        """
    }

    private static func phaseSection(_ experiment: ExperimentReport.Experiment, _ phase: ExperimentReport.Phase) -> String {
        var html = "<section class=\"phase\" data-experiment=\"\(escape(experiment.name))\" data-phase=\"\(escape(phase.phase))\">"
        html += "<h2>\(escape(experiment.name)) <small>phase \(escape(phase.phase))\(phase.isServing ? " · serving" : "")"
        html += " · traffic \(phase.traffic) % · weights from the \(escape(phase.weightsSource.rawValue))</small></h2>"
        let check = phase.sampleRatio
        let verdict = check.isMismatch
            ? "Sample-ratio mismatch: p = \(ExperimentReportFormat.pValue(check.pValue)) &lt; \(format(check.threshold)). The split is broken; no figure below is to be trusted."
            : "Split sound: sample-ratio check p = \(ExperimentReportFormat.pValue(check.pValue)) (flagged below \(format(check.threshold)))."
        html += "<div class=\"srm \(check.isMismatch ? "bad" : "good")\" data-testid=\"srm\">\(verdict)</div>"
        html += "<table class=\"split\"><thead><tr><th>variant</th><th>weight</th><th>expected</th><th>exposed</th><th>observed</th></tr></thead><tbody>"
        for variant in phase.variants {
            html += "<tr><td>\(escape(variant.variant))</td><td>\(variant.weight)</td><td>\(ExperimentReportFormat.share(variant.expectedShare))</td>"
            html += "<td>\(variant.exposedCustomers)</td><td>\(ExperimentReportFormat.share(variant.observedShare))</td></tr>"
        }
        html += "</tbody></table>"
        let notes = phase.notes.filter { $0.kind != .sampleRatioMismatch }
        if !notes.isEmpty {
            html += "<ul class=\"notes\">" + notes.map { "<li data-note=\"\($0.kind.rawValue)\">\(escape($0.message))</li>" }.joined() + "</ul>"
        }
        let matured = phase.horizons.filter(\.hasMaturedCustomers)
        if matured.isEmpty {
            html += "<p class=\"empty\">No customer has matured for any horizon yet.</p>"
        }
        for horizon in matured {
            html += horizonSection(horizon, mismatch: check.isMismatch)
        }
        return html + "</section>"
    }

    private static func horizonSection(_ horizon: ExperimentReport.Horizon, mismatch: Bool) -> String {
        let matured = horizon.maturedCustomers.sorted { $0.key < $1.key }.map { "\(escape($0.key)) \($0.value)" }.joined(separator: " · ")
        var html = "<div class=\"horizon\(horizon.isTrustworthy ? "" : " untrusted")\" data-horizon=\"\(horizon.days)\">"
        html += "<h3>\(horizon.days) days <small>matured: \(matured)</small></h3>"
        if !horizon.isTrustworthy {
            html += "<p class=\"caveat\">\(mismatch ? "Not to be trusted: the split is broken." : "Not a result yet: too few customers (see the notes).")</p>"
        }
        if !horizon.currenciesLeftOut.isEmpty {
            html += "<p class=\"caveat\">Revenue leaves out \(escape(horizon.currenciesLeftOut.joined(separator: ", "))): no rate given.</p>"
        }
        html += "<table class=\"metrics\"><thead><tr><th>metric</th><th>means</th><th>variant</th><th>relative difference</th>"
        html += "<th>sequential</th><th>fixed-horizon</th></tr></thead><tbody>"
        for metric in horizon.metrics {
            html += metricRows(metric)
        }
        return html + "</tbody></table></div>"
    }

    private static func metricRows(_ metric: ExperimentReport.Metric) -> String {
        let means = metric.variants.map { "\(escape($0.variant)) \(escape(ExperimentReportFormat.mean($0.mean, of: metric)))" }
            .joined(separator: "<br>")
        guard !metric.comparisons.isEmpty else {
            return "<tr><th scope=\"row\">\(escape(metric.title))</th><td>\(means)</td><td colspan=\"4\">no control to compare with</td></tr>"
        }
        var html = ""
        for (index, comparison) in metric.comparisons.enumerated() {
            let absolute = { (value: Double) in ExperimentReportFormat.absolute(value, of: metric) }
            html += "<tr data-metric=\"\(escape(metric.metric))\" data-variant=\"\(escape(comparison.variant))\">"
            if index == 0 {
                let span = metric.comparisons.count
                html += "<th scope=\"row\" rowspan=\"\(span)\">\(escape(metric.title))</th><td rowspan=\"\(span)\">\(means)</td>"
            }
            html += "<td>\(escape(comparison.variant))</td><td>\(ExperimentIntervalChart.svg(comparison.relative.sequential))</td>"
            html += "<td>\(escape(ExperimentReportFormat.result(comparison.relative.sequential, ExperimentReportFormat.relative)))"
            html += "<br><small>\(escape(ExperimentReportFormat.result(comparison.absolute.sequential, absolute)))</small></td>"
            html += "<td>\(escape(ExperimentReportFormat.result(comparison.relative.fixedHorizon, ExperimentReportFormat.relative)))"
            html += "<br><small>\(escape(ExperimentReportFormat.result(comparison.absolute.fixedHorizon, absolute)))</small></td></tr>"
        }
        return html
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : "\(value)"
    }

    /// `text` with the characters HTML gives a meaning written as entities.
    static func escape(_ text: String) -> String {
        HTMLText.escape(text)
    }

    private static let style = """
    body{font-family:-apple-system,system-ui,"Segoe UI",Roboto,sans-serif;margin:0;background:#f2f2f7;color:#1c1c1e}
    header{padding:16px 24px;background:#fff;border-bottom:1px solid #d1d1d6}h1{margin:0;font-size:20px}
    .meta{margin:4px 0 0;color:#636366;font-size:13px;max-width:900px}main{padding:16px 24px}
    .phase{background:#fff;border-radius:14px;padding:16px 20px;margin-bottom:20px;box-shadow:0 2px 8px rgba(0,0,0,.06)}
    h2{font-size:18px;margin:0 0 10px}h2 small,h3 small{font-weight:400;color:#636366;font-size:13px}h3{font-size:15px;margin:18px 0 6px}
    .srm{border-radius:10px;padding:10px 14px;font-weight:600;margin-bottom:10px}.srm.good{background:#e8f8ed;color:#1d7a36}
    .srm.bad{background:#ffe5e3;color:#b3261e}table{border-collapse:collapse;font-size:13px}th,td{padding:5px 10px;text-align:left;
    border-bottom:1px solid #e5e5ea;vertical-align:middle}thead th{color:#636366;font-weight:500}td small{color:#636366}
    .notes{margin:8px 0;padding-left:20px;color:#8a5300;font-size:13px}.caveat{color:#b3261e;font-size:13px;margin:4px 0}
    .untrusted table{opacity:.55}.metrics td:nth-child(2){white-space:nowrap}.empty{color:#8e8e93}svg{display:block}
    """
}
