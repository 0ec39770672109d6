import Foundation

/// How the text and HTML renderings of an ``ExperimentReport`` write its numbers: shares as
/// percentages, amounts with two decimals, differences with their sign, p-values to two
/// significant digits.
enum ExperimentReportFormat {
    /// A metric's mean: a share as a percentage, an amount with two decimals.
    static func mean(_ value: Double, of metric: ExperimentReport.Metric) -> String {
        metric.isShare ? String(format: "%.1f %%", value * 100) : String(format: "%.2f", value)
    }

    /// An absolute difference with its sign: percentage points for a share, an amount otherwise.
    static func absolute(_ value: Double, of metric: ExperimentReport.Metric) -> String {
        metric.isShare ? String(format: "%+.1f pts", value * 100) : String(format: "%+.2f", value)
    }

    /// A relative difference with its sign, as a percentage.
    static func relative(_ value: Double) -> String {
        String(format: "%+.1f %%", value * 100)
    }

    /// A p-value to two significant digits, or "< 0.0001".
    static func pValue(_ value: Double) -> String {
        value < 0.0001 ? "< 0.0001" : String(format: "%.2g", value)
    }

    /// A share of customers as a percentage.
    static func share(_ value: Double) -> String {
        String(format: "%.1f %%", value * 100)
    }

    /// One test's difference: the estimate, its interval and p-value, or why there is none.
    static func result(_ result: ExperimentReport.TestResult, _ value: (Double) -> String) -> String {
        guard let estimate = result.estimate, let lower = result.lower, let upper = result.upper, let p = result.pValue else {
            return "no result: \(result.undefinedReason ?? "undefined")"
        }
        return "\(value(estimate)) [\(value(lower)), \(value(upper))] p \(pValue(p))\(result.isSignificant ? " *" : "")"
    }
}
