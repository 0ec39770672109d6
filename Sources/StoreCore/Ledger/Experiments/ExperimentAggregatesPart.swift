/// What one read of an experiment report counts: the report is counted in three reads, the
/// exposures first, then the outcomes and the revenue side by side.
public enum ExperimentAggregatesPart: Sendable, Hashable {
    /// Per variant, the customers exposed and those matured for each horizon, the first and
    /// last exposure, the policy versions, the customers found in several variants.
    case exposures
    /// Per horizon and variant, the yes-or-no metrics of the matured customers.
    case outcomes
    /// Per horizon, variant and currency, net revenue as it is and capped, with the caps and
    /// the currencies left out; each horizon's cap at nearest rank `capRanks[h]` of its
    /// `maturedCustomers[h]` values.
    case revenue(capRanks: [Int], maturedCustomers: [Int])
}
