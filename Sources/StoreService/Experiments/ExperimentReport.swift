import Foundation
import StoreCore

/// What an experiment earned, per phase and per variant: the JSON of
/// `storerules experiments report --json` and of `GET /v1/admin/experiments`. Each phase says
/// first whether its split is sound (the sample-ratio-mismatch check), then, per horizon, each
/// metric's means and each variant's difference from control with its interval and p-value,
/// under the sequential test (read by default) and the fixed-horizon test. Built by
/// ``ExperimentReporter``.
public struct ExperimentReport: Sendable, Hashable, Codable {
    /// The p-value below which a phase's split is flagged as a sample-ratio mismatch.
    public static let sampleRatioMismatchThreshold = 0.001
    /// The horizons every report has, in days; a report asked for another adds it.
    public static let standardHorizons = [7, 14, 30]
    /// The test a reader reads by default: its intervals stay valid however often the report is read.
    public static let defaultTest = "sequential"

    /// The time the report is as of, ISO 8601.
    public var asOf: String
    /// The percentile each currency's net revenue per customer is capped at.
    public var revenueCapPercentile: Double
    /// The currency revenue is converted into, when the report was given rates.
    public var targetCurrency: String?
    /// The fewest matured customers a variant needs for its horizon's figures to count as a result.
    public var minimumCustomersPerVariant: Int
    /// The significance level of every interval: 0.05 for 95 % intervals.
    public var alpha: Double
    /// Which of the two tests' results to read: ``defaultTest``.
    public var defaultTest: String
    /// Each experiment, by name.
    public var experiments: [Experiment]

    /// Describes a report.
    public init(asOf: Date, revenueCapPercentile: Double, targetCurrency: String?, minimumCustomersPerVariant: Int, alpha: Double,
                experiments: [Experiment]) {
        self.asOf = asOf.formatted(.iso8601)
        self.revenueCapPercentile = revenueCapPercentile
        self.targetCurrency = targetCurrency
        self.minimumCustomersPerVariant = minimumCustomersPerVariant
        self.alpha = alpha
        defaultTest = Self.defaultTest
        self.experiments = experiments
    }

    private enum CodingKeys: String, CodingKey {
        case asOf = "as_of", revenueCapPercentile = "revenue_cap_percentile", targetCurrency = "target_currency"
        case minimumCustomersPerVariant = "minimum_customers_per_variant", alpha, defaultTest = "default_test", experiments
    }

    /// One experiment: the phases the ledger recorded exposures for, and the serving policy's
    /// phase when it has none yet.
    public struct Experiment: Sendable, Hashable, Codable {
        /// The experiment's name.
        public var name: String
        /// Whether the serving policy declares it.
        public var isDeclared: Bool
        /// Each phase, the first recorded first.
        public var phases: [Phase]

        /// Describes an experiment.
        public init(name: String, isDeclared: Bool, phases: [Phase]) {
            self.name = name
            self.isDeclared = isDeclared
            self.phases = phases
        }

        private enum CodingKeys: String, CodingKey { case name, isDeclared = "declared", phases }
    }
}
