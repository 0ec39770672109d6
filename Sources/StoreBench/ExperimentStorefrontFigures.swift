/// Storefront GETs per second with a running experiment against the same run without one.
public struct ExperimentStorefrontFigures: Sendable, Encodable {
    /// The run whose policy declares and reads its experiments.
    public var withExperiment: WrkRun
    /// The run whose policy has no experiment and reads `nil` where the other reads a variant.
    public var withoutExperiment: WrkRun
    /// The customers the GETs went to in turn.
    public var customers: Int
    /// The exposures the run with the experiment recorded: at most one per customer.
    public var exposuresRecorded: Int

    /// Storefront GETs per second with the experiment over those without, in the same run.
    public var ratio: Double {
        withoutExperiment.requestsPerSecond > 0 ? withExperiment.requestsPerSecond / withoutExperiment.requestsPerSecond : 0
    }

    /// The goal: an experiment costs the storefront at most a tenth of its rate.
    public static let ratioGoal = 0.9

    private enum CodingKeys: String, CodingKey {
        case withExperiment = "with_experiment", withoutExperiment = "without_experiment", customers
        case exposuresRecorded = "exposures_recorded", ratio
    }

    /// Writes the figures, with the ratio.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(withExperiment, forKey: .withExperiment)
        try container.encode(withoutExperiment, forKey: .withoutExperiment)
        try container.encode(customers, forKey: .customers)
        try container.encode(exposuresRecorded, forKey: .exposuresRecorded)
        try container.encode(ratio, forKey: .ratio)
    }
}
