import Foundation

/// What a phase of an experiment declared, kept by the ledger the first time an exposure to the
/// phase is recorded: its variants and their weights, and the share of traffic in the
/// experiment, so that a report can test each variant's count of customers against its weight.
public struct ExperimentPhaseRecord: Hashable, Sendable, Codable {
    /// The experiment's name.
    public var experiment: String
    /// The phase.
    public var phase: String
    /// The phase's variants and their weights, sorted by name.
    public var variants: [ExperimentVariantWeight]
    /// The percentage of customers in the experiment, 0 to 100.
    public var traffic: Int
    /// When the ledger first recorded the phase; it keeps it to the millisecond.
    public var firstRecordedDate: Date

    /// Describes a phase; `variants` are kept sorted by name.
    public init(experiment: String, phase: String, variants: [ExperimentVariantWeight], traffic: Int, firstRecordedDate: Date) {
        self.experiment = experiment
        self.phase = phase
        self.variants = variants.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        self.traffic = traffic
        self.firstRecordedDate = firstRecordedDate
    }

    /// The record, when it follows the ledger's rules: names of 1 to
    /// ``ExperimentNameRule/maximumLength`` characters without control characters, at least
    /// one variant, each named once, weights of at least 0 adding up to more than 0, and
    /// traffic from 0 to 100.
    ///
    /// - Throws: ``LedgerError/invalidExperiment(_:)`` saying what breaks the rules.
    @discardableResult
    public func validated() throws(LedgerError) -> ExperimentPhaseRecord {
        try ExperimentNameRule.check(experiment, "a phase record's experiment")
        try ExperimentNameRule.check(phase, "a phase record's phase")
        for variant in variants {
            try ExperimentNameRule.check(variant.name, "a phase record's variant")
            guard variant.weight >= 0 else {
                throw .invalidExperiment("the variant \(variant.name) of \(experiment) has the weight \(variant.weight); a weight is at least 0")
            }
        }
        guard Set(variants.map(\.name)).count == variants.count else {
            throw .invalidExperiment("a phase record of \(experiment) names a variant twice")
        }
        guard variants.contains(where: { $0.weight > 0 }) else {
            throw .invalidExperiment("the weights of the variants of \(experiment) add up to 0; at least one is above 0")
        }
        guard (0...100).contains(traffic) else {
            throw .invalidExperiment("the traffic of \(experiment) is \(traffic); traffic is a percentage from 0 to 100")
        }
        return self
    }
}
