/// Something a reader of an experiment's phase should know before trusting its figures.
public struct ExperimentHealthNote: Sendable, Hashable, Codable {
    /// What the note is about.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The exposed customers are not split as the weights say (the sample-ratio check is flagged).
        case sampleRatioMismatch = "sample_ratio_mismatch"
        /// A variant has fewer matured customers than a result needs at a horizon.
        case tooFewCustomers = "too_few_customers"
        /// More than one policy version exposed customers during the phase.
        case severalPolicyVersions = "several_policy_versions"
        /// A customer was exposed to more than one variant of the phase, which assignment never does.
        case customerInSeveralVariants = "customer_in_several_variants"
        /// The phase has no control variant exposed to compare the others with.
        case noControl = "no_control"
    }

    /// What the note is about.
    public var kind: Kind
    /// The note, in a sentence.
    public var message: String
    /// The horizon it is about, in days, when it is about one.
    public var horizonDays: Int?

    /// Describes a note.
    public init(kind: Kind, message: String, horizonDays: Int? = nil) {
        self.kind = kind
        self.message = message
        self.horizonDays = horizonDays
    }

    private enum CodingKeys: String, CodingKey { case kind, message, horizonDays = "horizon_days" }
}
