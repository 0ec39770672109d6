import Foundation
import Synchronization

extension Ledger {
    /// What a report of an experiment's phase counts for each of `horizons` (in days), per
    /// variant, aggregated in the database: a statement per metric family grouped by variant,
    /// each reading every customer's transactions once for every horizon, so no customer is
    /// loaded into memory. The exposures are counted first; then the revenue, the outcomes and
    /// the exposures' checks, in reads side by side (a transaction stored between them may
    /// count in one and not the other). The definitions, the same on SQLite and PostgreSQL, for
    /// each horizon:
    ///
    /// - **Exposed**: the customers with an exposure to the variant in the phase (one each).
    /// - **Window**: a customer's first exposure to the phase, then the horizon's days: the
    ///   times `t` with `exposed ≤ t < exposed + horizon`. A window transaction is one of the
    ///   customer's transactions purchased in the window.
    /// - **Matured**: the customers whose window has ended by `asOf` (`exposed + horizon ≤
    ///   asOf`). Every metric is over the matured customers only, each counting once.
    /// - **Started a trial**: a window transaction is an introductory offer (`offer_type` 1)
    ///   whose discount is a free trial (`FREE_TRIAL`).
    /// - **Paid**: a window transaction has a price above 0.
    /// - **Converted a trial to paid**: a window transaction with a price above 0 was purchased
    ///   after a free-trial window transaction of the same original transaction id.
    /// - **Refunded**: a window transaction was revoked before the window ends.
    /// - **Net revenue**: per currency, the prices of the window transactions (milli-units, so
    ///   a price of 9990 is 9.99) less those revoked before the window ends; transactions
    ///   without a price or currency count in none. Every matured customer counts, with 0 in a
    ///   currency they did not pay in; the figures are in units of the currency.
    /// - **With `rates`**: each customer's net revenue in each currency with a rate is
    ///   multiplied by it and added up in the target currency, in the database; a currency
    ///   without a rate is listed in ``ExperimentAggregates/currenciesLeftOut`` and its
    ///   transactions are not counted.
    /// - **Capped**: each customer's net revenue taken as at most the currency's cap: the
    ///   nearest-rank `revenueCapPercentile` of the net revenue of every matured customer of the
    ///   phase, whatever their variant — sorted from the smallest, the value at rank
    ///   ⌈percentile × customers / 100⌉ (at least 1), picked by the database.
    ///
    /// Sums of squares of revenue are added up in double precision: exact, and the same on
    /// both databases, while a customer's revenue stays below about 94,900 units and a sum
    /// below 2⁵³ milli-units squared; converted revenue is as exact as its rates.
    ///
    /// - Returns: the aggregates of each horizon, in the order of `horizons` (a horizon given
    ///   twice is counted once and answered twice).
    /// - Throws: ``LedgerError/invalidExperiment(_:)`` for no horizon, a horizon outside 1 to
    ///   ``ExperimentAggregatesQuery/maximumHorizonDays``, a bad name, a percentile outside
    ///   (0, 100] or a rate that is not a finite number above 0; a storage failure.
    public func experimentAggregates(experiment: String, phase: String, horizons: [Int], asOf: Date,
                                     revenueCapPercentile: Double, rates: ExperimentCurrencyRates?) throws -> [ExperimentAggregates] {
        let query = try ExperimentAggregatesQuery(experiment: experiment, phase: phase, horizons: horizons, asOf: asOf,
                                                  revenueCapPercentile: revenueCapPercentile, rates: rates)
        var figures = try reading { try $0.experimentAggregates(query, counting: .exposures) }
        // The longest first, so that the short checks follow the outcomes on a machine of two cores.
        let parts: [ExperimentAggregatesPart] = [.revenue(capRanks: figures.capRanks, maturedCustomers: figures.maturedCustomers),
                                                 .outcomes, .exposureChecks]
        let counted = Mutex<[Int: Result<ExperimentAggregateFigures, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: parts.count) { position in
            let result = Result { try reading { try $0.experimentAggregates(query, counting: parts[position]) } }
            counted.withLock { $0[position] = result }
        }
        let results = counted.withLock { $0 }
        for position in parts.indices { figures.take(parts[position], from: try results[position]!.get()) }
        let byHorizon = Dictionary(uniqueKeysWithValues: zip(query.horizons, figures.aggregates()))
        return horizons.map { byHorizon[$0]! }
    }

    /// What a report of an experiment's phase counts over one horizon of `horizonDays`, as
    /// ``experimentAggregates(experiment:phase:horizons:asOf:revenueCapPercentile:rates:)`` defines it.
    ///
    /// - Throws: what that method throws.
    public func experimentAggregates(experiment: String, phase: String, horizonDays: Int, asOf: Date,
                                     revenueCapPercentile: Double, rates: ExperimentCurrencyRates?) throws -> ExperimentAggregates {
        try experimentAggregates(experiment: experiment, phase: phase, horizons: [horizonDays], asOf: asOf,
                                 revenueCapPercentile: revenueCapPercentile, rates: rates)[0]
    }
}
