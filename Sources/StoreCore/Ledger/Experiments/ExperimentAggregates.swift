import Foundation

/// What the ledger counts of an experiment's phase for a report, aggregated in the database:
/// each variant's customers and metric figures, the revenue caps, and the facts a report checks
/// the phase's health by. Built by
/// ``Ledger/experimentAggregates(experiment:phase:horizonDays:asOf:revenueCapPercentile:rates:)``,
/// where each figure is defined.
public struct ExperimentAggregates: Hashable, Sendable, Codable {
    /// The experiment.
    public var experiment: String
    /// The phase.
    public var phase: String
    /// The horizon in days: each customer's window is the horizon from their first exposure.
    public var horizonDays: Int
    /// The time the report is as of: customers whose window ends after it are not matured.
    public var asOf: Date
    /// The percentile of the pooled net revenue per customer each currency's revenue is capped
    /// at, above 0 and at most 100.
    public var revenueCapPercentile: Double
    /// Each variant exposed in the phase, by name.
    public var variants: [ExperimentVariantAggregates]
    /// The cap of each currency's net revenue per customer, in units of the currency: the
    /// nearest-rank ``revenueCapPercentile`` of the values of every matured customer of the
    /// phase, whatever their variant.
    public var revenueCaps: [String: Double]
    /// The currency revenue is converted into, when the report was given rates.
    public var targetCurrency: String?
    /// The currencies matured customers paid in that the rates have no rate for, by code: their
    /// transactions are not counted in revenue. Empty without rates.
    public var currenciesLeftOut: [String]
    /// Each policy version that exposed a customer in the phase, byte by byte in order.
    public var policyVersions: [String]
    /// How many customers were exposed to more than one variant of the phase: 0 while the
    /// ledger keeps one exposure per customer and phase, and counted so a report says so if not.
    public var customersInSeveralVariants: Int
    /// The first exposure of the phase; nil when it has none.
    public var firstExposureDate: Date?
    /// The last exposure of the phase; nil when it has none.
    public var lastExposureDate: Date?

    /// Describes a phase's aggregates.
    public init(experiment: String, phase: String, horizonDays: Int, asOf: Date, revenueCapPercentile: Double,
                variants: [ExperimentVariantAggregates], revenueCaps: [String: Double], targetCurrency: String?,
                currenciesLeftOut: [String], policyVersions: [String], customersInSeveralVariants: Int,
                firstExposureDate: Date?, lastExposureDate: Date?) {
        self.experiment = experiment
        self.phase = phase
        self.horizonDays = horizonDays
        self.asOf = asOf
        self.revenueCapPercentile = revenueCapPercentile
        self.variants = variants
        self.revenueCaps = revenueCaps
        self.targetCurrency = targetCurrency
        self.currenciesLeftOut = currenciesLeftOut
        self.policyVersions = policyVersions
        self.customersInSeveralVariants = customersInSeveralVariants
        self.firstExposureDate = firstExposureDate
        self.lastExposureDate = lastExposureDate
    }
}
