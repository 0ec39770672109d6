/// One variant of an experiment's phase and its weight: the variant's share of the customers in
/// the experiment is its weight over the sum of the phase's weights.
public struct ExperimentVariantWeight: Hashable, Sendable, Codable {
    /// The variant's name.
    public var name: String
    /// Its weight, a whole number of at least 0.
    public var weight: Int

    /// Describes a variant and its weight.
    public init(name: String, weight: Int) {
        self.name = name
        self.weight = weight
    }
}
