/// Storefront GETs per second with a running experiment against the same run without one, in
/// rounds: customers new to the experiment (each one's first GET records an exposure), and the
/// same customers returning (every exposure recorded, each GET reads it back).
public struct ExperimentStorefrontFigures: Sendable, Encodable {
    /// One round's three runs, taken in turn.
    public struct Round: Sendable, Encodable {
        /// The run whose policy has no experiment and reads `nil` where the others read a variant.
        public var withoutExperiment: WrkRun
        /// The run with the experiment on a new ledger: every customer new to it.
        public var newCustomers: WrkRun
        /// The run with the experiment again on that ledger: every customer returning.
        public var returningCustomers: WrkRun

        /// Describes a round.
        public init(withoutExperiment: WrkRun, newCustomers: WrkRun, returningCustomers: WrkRun) {
            self.withoutExperiment = withoutExperiment
            self.newCustomers = newCustomers
            self.returningCustomers = returningCustomers
        }

        private enum CodingKeys: String, CodingKey {
            case withoutExperiment = "without_experiment", newCustomers = "new_customers", returningCustomers = "returning_customers"
        }
    }

    /// The rounds, in the order they ran.
    public var rounds: [Round]
    /// The customers the GETs went to in turn.
    public var customers: Int
    /// The exposures the last run with new customers recorded: at most one per customer.
    public var exposuresRecorded: Int

    /// Describes the runs.
    public init(rounds: [Round], customers: Int, exposuresRecorded: Int) {
        self.rounds = rounds
        self.customers = customers
        self.exposuresRecorded = exposuresRecorded
    }

    /// The median over the rounds of GETs per second with the experiment, every customer new
    /// to it, over those without.
    public var ratio: Double { Self.medianRatio(rounds.map { ($0.newCustomers, $0.withoutExperiment) }) }

    /// The median over the rounds of GETs per second with the experiment, every customer
    /// returning, over those without.
    public var returningRatio: Double { Self.medianRatio(rounds.map { ($0.returningCustomers, $0.withoutExperiment) }) }

    /// The round whose new-customer ratio is the median: the one a table shows.
    public var medianRound: Round? {
        rounds.sorted { Self.ratio($0.newCustomers, $0.withoutExperiment) < Self.ratio($1.newCustomers, $1.withoutExperiment) }
            .dropFirst(rounds.count / 2).first
    }

    /// The goal: an experiment costs the storefront at most a tenth of its rate.
    public static let ratioGoal = 0.9

    private static func ratio(_ run: WrkRun, _ reference: WrkRun) -> Double {
        reference.requestsPerSecond > 0 ? run.requestsPerSecond / reference.requestsPerSecond : 0
    }

    private static func medianRatio(_ pairs: [(WrkRun, WrkRun)]) -> Double {
        let sorted = pairs.map { ratio($0.0, $0.1) }.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    private enum CodingKeys: String, CodingKey {
        case rounds, customers, exposuresRecorded = "exposures_recorded", ratio, returningRatio = "returning_ratio"
    }

    /// Writes the figures, with the ratios.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rounds, forKey: .rounds)
        try container.encode(customers, forKey: .customers)
        try container.encode(exposuresRecorded, forKey: .exposuresRecorded)
        try container.encode(ratio, forKey: .ratio)
        try container.encode(returningRatio, forKey: .returningRatio)
    }
}
