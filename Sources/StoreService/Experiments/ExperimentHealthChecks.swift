import StoreCore
import StorePolicy

/// The health notes of an experiment's phase: what makes its figures untrustworthy, each said
/// in a sentence with the figure that calls for it.
enum ExperimentHealthChecks {
    /// The notes about the phase as a whole: a broken split, several policy versions, a
    /// customer in two variants, no control.
    static func phaseNotes(sampleRatio: ExperimentReport.SampleRatioCheck, facts: ExperimentAggregates,
                           variantNames: [String]) -> [ExperimentHealthNote] {
        var notes: [ExperimentHealthNote] = []
        if sampleRatio.isMismatch {
            notes.append(ExperimentHealthNote(
                kind: .sampleRatioMismatch,
                message: "the exposed customers are not split as the weights say (sample-ratio mismatch, p = "
                    + "\(pValueText(sampleRatio.pValue)) < \(sampleRatio.threshold)): no metric of this phase is to be trusted; "
                    + "look for what exposes one variant more than another"))
        }
        if facts.policyVersions.count > 1 {
            notes.append(ExperimentHealthNote(
                kind: .severalPolicyVersions,
                message: "\(facts.policyVersions.count) policy versions exposed customers during the phase "
                    + "(\(facts.policyVersions.joined(separator: ", "))): a change of rules within the phase mixes into the figures"))
        }
        if facts.customersInSeveralVariants > 0 {
            notes.append(ExperimentHealthNote(
                kind: .customerInSeveralVariants,
                message: "\(facts.customersInSeveralVariants) customer(s) were exposed to more than one variant of the phase, "
                    + "which assignment never does: check the ledger's experiment_exposure rows"))
        }
        if !variantNames.contains(ExperimentDeclaration.controlVariant) {
            notes.append(ExperimentHealthNote(kind: .noControl, message: "the phase has no variant named control to compare the others with"))
        }
        return notes
    }

    /// The note that a horizon's fewest matured customers in a variant are below the threshold.
    static func tooFewCustomers(horizonDays: Int, fewest: Int, threshold: Int) -> ExperimentHealthNote {
        ExperimentHealthNote(
            kind: .tooFewCustomers,
            message: "too few customers for a result at \(horizonDays) days: a variant has \(fewest) matured customer(s); "
                + "a result needs at least \(threshold) in each",
            horizonDays: horizonDays)
    }

    /// A p-value as the notes print it.
    static func pValueText(_ value: Double) -> String {
        value < 0.0001 ? "< 0.0001" : value.formatted(.number.precision(.significantDigits(2)))
    }
}
