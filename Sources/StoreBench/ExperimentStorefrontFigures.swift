/// Storefront GETs per second with a running experiment against the same run without one, in
/// rounds: customers new to the experiment (each one's first GET records an exposure), and the
/// same customers returning (every exposure recorded, each GET reads it back). Each round runs
/// without the experiment before and after the runs with it, and compares them with the mean of
/// the two, so that a machine slowing down or speeding up during a round weighs on both sides.
public struct ExperimentStorefrontFigures: Sendable, Encodable {
    /// One round's four runs, taken in turn.
    public struct Round: Sendable, Encodable {
        /// The run whose policy has no experiment and reads `nil` where the others read a variant.
        public var withoutExperiment: WrkRun
        /// The same run again, after the runs with the experiment.
        public var withoutExperimentAfter: WrkRun
        /// The run with the experiment on a new ledger: every customer new to it.
        public var newCustomers: WrkRun
        /// The run with the experiment again on that ledger: every customer returning.
        public var returningCustomers: WrkRun

        /// GETs per second without the experiment: the mean of the runs before and after.
        public var requestsPerSecondWithout: Double {
            (withoutExperiment.requestsPerSecond + withoutExperimentAfter.requestsPerSecond) / 2
        }

        /// Describes a round.
        public init(withoutExperiment: WrkRun, newCustomers: WrkRun, returningCustomers: WrkRun, withoutExperimentAfter: WrkRun) {
            self.withoutExperiment = withoutExperiment
            self.withoutExperimentAfter = withoutExperimentAfter
            self.newCustomers = newCustomers
            self.returningCustomers = returningCustomers
        }

        private enum CodingKeys: String, CodingKey {
            case withoutExperiment = "without_experiment", withoutExperimentAfter = "without_experiment_after", newCustomers = "new_customers", returningCustomers = "returning_customers"
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
    public var ratio: Double { Self.median(rounds.map { Self.ratio($0.newCustomers, $0) }) }

    /// The median over the rounds of GETs per second with the experiment, every customer
    /// returning, over those without.
    public var returningRatio: Double { Self.median(rounds.map { Self.ratio($0.returningCustomers, $0) }) }

    /// The round whose new-customer ratio is the median: the one a table shows.
    public var medianRound: Round? {
        rounds.sorted { Self.ratio($0.newCustomers, $0) < Self.ratio($1.newCustomers, $1) }.dropFirst(rounds.count / 2).first
    }

    /// The goal: an experiment costs the storefront at most a tenth of its rate.
    public static let ratioGoal = 0.9

    private static func ratio(_ run: WrkRun, _ round: Round) -> Double {
        round.requestsPerSecondWithout > 0 ? run.requestsPerSecond / round.requestsPerSecondWithout : 0
    }

    private static func median(_ ratios: [Double]) -> Double {
        let sorted = ratios.sorted()
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
