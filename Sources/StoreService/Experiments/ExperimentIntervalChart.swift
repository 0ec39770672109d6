/// A difference and its interval drawn as a small inline SVG: a line at no difference, the
/// interval as a bar and the estimate as a point, green or red when the interval excludes no
/// difference and grey when it does not.
enum ExperimentIntervalChart {
    static let width = 220.0
    static let height = 26.0
    private static let margin = 8.0

    /// The chart of `result`, or a line of text saying why there is none.
    static func svg(_ result: ExperimentReport.TestResult) -> String {
        guard let estimate = result.estimate, let lower = result.lower, let upper = result.upper,
              estimate.isFinite, lower.isFinite, upper.isFinite else {
            return "<span class=\"empty\">no result: \(ExperimentReportHTML.escape(result.undefinedReason ?? "undefined"))</span>"
        }
        let reach = max(abs(lower), abs(upper), 0.01) * 1.1
        let x = { (value: Double) in margin + (value + reach) / (2 * reach) * (width - 2 * margin) }
        let color = !result.isSignificant ? "#8e8e93" : (estimate > 0 ? "#248a3d" : "#d70015")
        let middle = height / 2
        let label = "difference \(ExperimentReportFormat.relative(estimate)), interval \(ExperimentReportFormat.relative(lower)) "
            + "to \(ExperimentReportFormat.relative(upper))"
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(ExperimentReportHTML.escape(label))\">"
            + "<line x1=\"\(point(x(0)))\" y1=\"2\" x2=\"\(point(x(0)))\" y2=\"\(point(height - 2))\" stroke=\"#1c1c1e\" stroke-width=\"1\"/>"
            + "<line x1=\"\(point(x(lower)))\" y1=\"\(point(middle))\" x2=\"\(point(x(upper)))\" y2=\"\(point(middle))\" "
            + "stroke=\"\(color)\" stroke-width=\"6\" stroke-linecap=\"round\" opacity=\"0.45\"/>"
            + "<circle cx=\"\(point(x(estimate)))\" cy=\"\(point(middle))\" r=\"5\" fill=\"\(color)\"/></svg>"
    }

    private static func point(_ value: Double) -> String {
        String((value * 10).rounded() / 10)
    }
}
