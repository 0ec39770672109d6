import Foundation

/// The sequential test: asymptotic confidence sequences (Waudby-Smith et al., "Time-uniform
/// central limit theory and asymptotic confidence sequences", 2023), as gbstats'
/// `SequentialTwoSidedTTest`. Its intervals are wider than the fixed-horizon test's, and in
/// exchange stay valid however often they are read while the data accumulates.
public enum SequentialTest {
    /// gbstats' default tuning parameter: the total sample size near which the intervals are tightest.
    public static let defaultTuning = 5000.0

    /// Compares `treatment` with `control` over `N` customers in all, with
    /// `ρ = √((−2 ln α + ln(1 − 2 ln α)) / tuning)`: the interval
    /// `d ± se √(N) √(2 (Nρ² + 1) ln(√(Nρ² + 1) / α) / (Nρ)²)` and the p-value
    /// `min(1, √(Nρ² + 1) · exp(−ρ² N d² / (2 se² N (Nρ² + 1))))`, the inverse of the sequence's
    /// e-value, where `se² N` is the estimate's variance scaled to one customer.
    public static func compare<Summary: MetricSummary>(control: Summary, treatment: Summary, difference: DifferenceKind,
                                                       alpha: Double = 0.05, tuning: Double = defaultTuning) -> MetricComparison {
        let comparison = ComparisonArithmetic(control: control, treatment: treatment, difference: difference)
        if let reason = comparison.undefinedReason { return comparison.undefined(reason, alpha: alpha) }
        let total = comparison.controlCount + comparison.treatmentCount
        let estimate = comparison.estimate
        let variance = comparison.variance
        let rhoSquare = (-2 * log(alpha) + log(-2 * log(alpha) + 1)) / tuning
        let spread = total * rhoSquare + 1
        let width = (variance * total).squareRoot()
            * (2 * spread * log(spread.squareRoot() / alpha) / (total * total * rhoSquare)).squareRoot()
        // gbstats' e-value exp(ρ² S / (2 spread)) / √spread with S = d² N / variance, taken in logarithms.
        let statistic = estimate * estimate * total / variance
        let logEValue = rhoSquare * statistic / (2 * spread) - 0.5 * log(spread)
        let pValue = min(1, exp(-logEValue))
        return comparison.defined(estimate: estimate, lower: estimate - width, upper: estimate + width, pValue: pValue,
                                  standardError: variance.squareRoot(), degreesOfFreedom: nil, alpha: alpha)
    }
}
