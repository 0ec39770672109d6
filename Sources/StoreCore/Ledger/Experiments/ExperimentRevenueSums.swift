/// A variant's net revenue per matured customer in one currency, as it is and capped: every
/// matured customer counts, with 0 when they spent nothing in the currency, and the capped
/// figures take each customer's value as at most the currency's cap
/// (``ExperimentAggregates/revenueCaps``). Values are in units of the currency (a price of
/// 9.99, not 9990 milli-units).
public struct ExperimentRevenueSums: Hashable, Sendable, Codable {
    /// The figures of each customer's net revenue.
    public var uncapped: ExperimentMetricSums
    /// The figures of each customer's net revenue, capped.
    public var capped: ExperimentMetricSums

    /// Describes a variant's revenue figures in one currency.
    public init(uncapped: ExperimentMetricSums, capped: ExperimentMetricSums) {
        self.uncapped = uncapped
        self.capped = capped
    }
}
