/// What one read of an experiment report counts: the report is counted in four reads, the
/// exposures first, then the revenue, the outcomes and the exposures' checks side by side.
public enum ExperimentAggregatesPart: Sendable, Hashable {
    /// Per variant, the customers exposed and those matured for each horizon, the first and
    /// last exposure.
    case exposures
    /// The policy versions of the phase's exposures, and the customers found in several
    /// variants.
    case exposureChecks
    /// Per horizon and variant, the yes-or-no metrics of the matured customers.
    case outcomes
    /// Per horizon, variant and currency, net revenue as it is and capped, with the caps and
    /// the currencies left out; each horizon's cap at nearest rank `capRanks[h]` of its
    /// `maturedCustomers[h]` values.
    case revenue(capRanks: [Int], maturedCustomers: [Int])
}
