/// What both tests compute the same way from two summaries: the estimate, its variance, Welch's
/// degrees of freedom, and the checks that come before (gbstats' `TTest`).
struct ComparisonArithmetic {
    let controlMean: Double
    let treatmentMean: Double
    let controlVariance: Double
    let treatmentVariance: Double
    let controlCount: Double
    let treatmentCount: Double
    let difference: DifferenceKind

    init(control: some MetricSummary, treatment: some MetricSummary, difference: DifferenceKind) {
        controlMean = control.mean
        treatmentMean = treatment.mean
        controlVariance = control.variance
        treatmentVariance = treatment.variance
        controlCount = Double(control.count)
        treatmentCount = Double(treatment.count)
        self.difference = difference
    }

    /// gbstats' reason to answer its default instead of a result, checked in its order.
    var undefinedReason: ComparisonUndefinedReason? {
        if controlMean == 0 { return .controlMeanZero }
        if controlVariance <= 0 || treatmentVariance <= 0 { return .zeroOrNegativeVariance }
        return nil
    }

    /// The treatment's mean less control's, divided by control's for a relative difference.
    var estimate: Double {
        switch difference {
        case .absolute: treatmentMean - controlMean
        case .relative: (treatmentMean - controlMean) / controlMean
        }
    }

    /// The estimate's variance; for a relative difference by the delta method,
    /// `σ²_b / (μ²_a n_b) + σ²_a μ²_b / (μ⁴_a n_a)`.
    var variance: Double {
        switch difference {
        case .absolute:
            return treatmentVariance / treatmentCount + controlVariance / controlCount
        case .relative:
            let controlSquare = controlMean * controlMean
            return treatmentVariance / (controlSquare * treatmentCount)
                + controlVariance * treatmentMean * treatmentMean / (controlSquare * controlSquare * controlCount)
        }
    }

    /// The Welch–Satterthwaite approximation to the degrees of freedom.
    var degreesOfFreedom: Double {
        let control = controlVariance / controlCount, treatment = treatmentVariance / treatmentCount
        let sum = control + treatment
        return sum * sum / (treatment * treatment / (treatmentCount - 1) + control * control / (controlCount - 1))
    }

    /// The result without figures, for `reason`.
    func undefined(_ reason: ComparisonUndefinedReason, alpha: Double) -> MetricComparison {
        MetricComparison(controlMean: controlMean, treatmentMean: treatmentMean, difference: difference, alpha: alpha,
                         estimate: nil, lower: nil, upper: nil, pValue: nil, standardError: nil, degreesOfFreedom: nil,
                         undefinedReason: reason)
    }

    /// The result with its figures, or without them when any is not finite.
    func defined(estimate: Double, lower: Double, upper: Double, pValue: Double, standardError: Double,
                 degreesOfFreedom: Double?, alpha: Double) -> MetricComparison {
        let figures = [estimate, lower, upper, pValue, standardError] + (degreesOfFreedom.map { [$0] } ?? [])
        guard figures.allSatisfy(\.isFinite) else { return undefined(.notFinite, alpha: alpha) }
        return MetricComparison(controlMean: controlMean, treatmentMean: treatmentMean, difference: difference, alpha: alpha,
                                estimate: estimate, lower: lower, upper: upper, pValue: pValue, standardError: standardError,
                                degreesOfFreedom: degreesOfFreedom, undefinedReason: nil)
    }
}
