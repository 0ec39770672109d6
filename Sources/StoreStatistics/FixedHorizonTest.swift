/// The fixed-horizon test: Welch's two-sided t-test with unequal variances, as gbstats'
/// `TwoSidedTTest`. Its interval and p-value hold for one look at data gathered to a horizon
/// fixed in advance; reading them as the data accumulates inflates the false positives.
public enum FixedHorizonTest {
    /// Compares `treatment` with `control`: the estimate `d`, the interval
    /// `d ± t_{1−α/2, ν} · se` with Welch–Satterthwaite's `ν`, and `p = 2 P(T_ν > |d| / se)`.
    public static func compare<Summary: MetricSummary>(control: Summary, treatment: Summary, difference: DifferenceKind,
                                                       alpha: Double = 0.05) -> MetricComparison {
        let comparison = ComparisonArithmetic(control: control, treatment: treatment, difference: difference)
        if let reason = comparison.undefinedReason { return comparison.undefined(reason, alpha: alpha) }
        let estimate = comparison.estimate
        let standardError = comparison.variance.squareRoot()
        let degreesOfFreedom = comparison.degreesOfFreedom
        guard degreesOfFreedom > 0, degreesOfFreedom.isFinite else { return comparison.undefined(.notFinite, alpha: alpha) }
        let width = StudentT.upperQuantile(tailProbability: alpha / 2, degreesOfFreedom: degreesOfFreedom) * standardError
        let pValue = 2 * StudentT.survival(abs(estimate / standardError), degreesOfFreedom: degreesOfFreedom)
        return comparison.defined(estimate: estimate, lower: estimate - width, upper: estimate + width, pValue: pValue,
                                  standardError: standardError, degreesOfFreedom: degreesOfFreedom, alpha: alpha)
    }
}
