/// What the ledger counts of one variant of an experiment's phase: its customers, and the
/// figures of each metric over those whose horizon has matured. The metrics are defined at
/// ``Ledger/experimentAggregates(experiment:phase:horizonDays:asOf:revenueCapPercentile:rates:)``.
public struct ExperimentVariantAggregates: Hashable, Sendable, Codable {
    /// The variant.
    public var variant: String
    /// Every customer exposed to the variant in the phase.
    public var exposedCustomers: Int
    /// The customers exposed to the variant whose horizon has matured: first exposed at least
    /// the horizon before the report's time.
    public var maturedCustomers: Int
    /// Started a free trial in their window (0 or 1 per matured customer).
    public var startedTrial: ExperimentMetricSums
    /// Paid for something in their window (0 or 1 per matured customer).
    public var paid: ExperimentMetricSums
    /// Converted a free trial to a paid period in their window (0 or 1 per matured customer).
    public var convertedTrialToPaid: ExperimentMetricSums
    /// Had a purchase of their window refunded within the window (0 or 1 per matured customer).
    public var refunded: ExperimentMetricSums
    /// Net revenue per matured customer, by ISO 4217 currency code: each currency customers
    /// paid in, or the one currency the report converts into.
    public var netRevenue: [String: ExperimentRevenueSums]

    /// Describes a variant's figures.
    public init(variant: String, exposedCustomers: Int, maturedCustomers: Int, startedTrial: ExperimentMetricSums,
                paid: ExperimentMetricSums, convertedTrialToPaid: ExperimentMetricSums, refunded: ExperimentMetricSums,
                netRevenue: [String: ExperimentRevenueSums]) {
        self.variant = variant
        self.exposedCustomers = exposedCustomers
        self.maturedCustomers = maturedCustomers
        self.startedTrial = startedTrial
        self.paid = paid
        self.convertedTrialToPaid = convertedTrialToPaid
        self.refunded = refunded
        self.netRevenue = netRevenue
    }
}
