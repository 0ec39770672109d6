/// One treatment compared with control on one metric: the two means and, when the comparison is
/// defined, the estimated difference, its interval and its p-value. When gbstats would answer
/// its uninformative default instead, the figures are absent and `undefinedReason` says why.
public struct MetricComparison: Sendable, Hashable, Codable {
    /// Control's mean.
    public var controlMean: Double
    /// The treatment's mean.
    public var treatmentMean: Double
    /// Whether the difference is absolute or relative.
    public var difference: DifferenceKind
    /// The significance level the interval was built for (0.05 for a 95 % interval).
    public var alpha: Double
    /// The estimated difference (gbstats' `expected`).
    public var estimate: Double?
    /// The interval's lower end.
    public var lower: Double?
    /// The interval's upper end.
    public var upper: Double?
    /// The two-sided p-value against no difference.
    public var pValue: Double?
    /// The standard error of the estimate (gbstats' `uplift.stddev`).
    public var standardError: Double?
    /// Welch–Satterthwaite's degrees of freedom, for the fixed-horizon test.
    public var degreesOfFreedom: Double?
    /// Why the figures are absent, when they are.
    public var undefinedReason: ComparisonUndefinedReason?

    /// A result with every figure given.
    public init(controlMean: Double, treatmentMean: Double, difference: DifferenceKind, alpha: Double, estimate: Double?,
                lower: Double?, upper: Double?, pValue: Double?, standardError: Double?, degreesOfFreedom: Double?,
                undefinedReason: ComparisonUndefinedReason?) {
        self.controlMean = controlMean
        self.treatmentMean = treatmentMean
        self.difference = difference
        self.alpha = alpha
        self.estimate = estimate
        self.lower = lower
        self.upper = upper
        self.pValue = pValue
        self.standardError = standardError
        self.degreesOfFreedom = degreesOfFreedom
        self.undefinedReason = undefinedReason
    }

    /// Whether the interval excludes no difference, that is, the test flags a difference at its `alpha`.
    public var isSignificant: Bool {
        guard let lower, let upper else { return false }
        return lower > 0 || upper < 0
    }
}

/// Why a comparison has no estimate, in gbstats' order of checks.
public enum ComparisonUndefinedReason: String, Sendable, Hashable, Codable {
    /// Control's mean is 0 (also with no control customers): gbstats' `ZERO_NEGATIVE_BASELINE_VARIATION`,
    /// for absolute differences as well as relative ones.
    case controlMeanZero
    /// A variant's variance is 0 or negative, which includes a variant with fewer than two customers:
    /// gbstats' `ZERO_NEGATIVE_VARIANCE`.
    case zeroOrNegativeVariance
    /// The arithmetic left the finite numbers (a control mean so near 0 that the relative variance
    /// overflows), where gbstats would print an infinity or NaN.
    case notFinite
}
