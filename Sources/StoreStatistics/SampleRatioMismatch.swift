/// The sample-ratio-mismatch check, as gbstats' `check_srm`: whether the customers exposed to
/// each variant are split as the declared weights say, by Pearson's chi-square test. A small
/// p-value (below 0.001, say) means the split itself is broken, and no metric can be trusted.
public enum SampleRatioMismatch {
    /// The chi-square p-value of `counts` (customers per variant) against `weights` (the declared
    /// weights, in the same order; they need not sum to 1), with `counts.count − 1` degrees of
    /// freedom. A variant of weight 0 or less adds nothing to the statistic. With no customers at
    /// all, or fewer than two variants, it is 1: nothing contradicts the split.
    public static func pValue(counts: [Int], weights: [Double]) -> Double {
        precondition(counts.count == weights.count, "one weight per variant")
        let observedTotal = Double(counts.reduce(0, +))
        guard observedTotal > 0, counts.count > 1 else { return 1 }
        let weightTotal = weights.reduce(0, +)
        var statistic = 0.0
        for (count, weight) in zip(counts, weights) where weight > 0 {
            let expected = weight / weightTotal * observedTotal
            let deviation = Double(count) - expected
            statistic += deviation * deviation / expected
        }
        return ChiSquare.survival(statistic, degreesOfFreedom: Double(counts.count - 1))
    }
}
