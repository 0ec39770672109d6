import Foundation
import SignedData

/// What the reads of an experiment report count (``ExperimentAggregatesPart``), put together
/// into an ``ExperimentAggregates`` for each horizon of a query: taken from the rows of the
/// statements of `LedgerRecords+ExperimentAggregates`, a row per variant (and horizon and
/// currency) at a time, and merged part by part.
public struct ExperimentAggregateFigures: Sendable {
    /// Net revenue sums of one variant in one currency, in milli-units.
    private struct RevenueTotals: Sendable {
        var customers = 0
        var sum = 0.0
        var squares = 0.0
    }

    /// How many of a variant's matured customers said yes to each yes-or-no metric.
    private struct Outcomes: Sendable {
        var startedTrial = 0
        var paid = 0
        var converted = 0
        var refunded = 0
    }

    /// Milli-units in a unit of a currency.
    private static let milliUnitsPerUnit = 1000.0

    /// One horizon's figures, as the statements' rows give them.
    private struct HorizonFigures: Sendable {
        var matured: [String: Int] = [:]
        var outcomes: [String: Outcomes] = [:]
        var revenue: [String: [String: RevenueTotals]] = [:]
        var capped: [String: [String: RevenueTotals]] = [:]
        var caps: [String: Double] = [:]
        var currenciesLeftOut: [String] = []

        /// Every matured customer of the phase, whatever their variant.
        var maturedCustomers: Int { matured.values.reduce(0, +) }

        /// Every currency some matured customer has a revenue value in, by code.
        var currencies: [String] {
            Set(revenue.values.flatMap(\.keys)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
    }

    let query: ExperimentAggregatesQuery
    private var exposed: [String: Int] = [:]
    private var firstExposure: Int64?
    private var lastExposure: Int64?
    private var horizons: [HorizonFigures]
    /// The policy versions of the phase's exposures.
    var policyVersions: [String] = []
    /// The customers exposed to more than one variant.
    var customersInSeveralVariants = 0

    init(query: ExperimentAggregatesQuery) {
        self.query = query
        horizons = Array(repeating: HorizonFigures(), count: query.horizons.count)
    }

    /// Takes a row of ``LedgerRecords/exposureCountsQuery(_:)``.
    mutating func addExposures(_ row: some LedgerRecordRow) throws {
        let variant = try row.text("variant")
        exposed[variant] = Int(try row.integer("exposed"))
        for position in horizons.indices {
            horizons[position].matured[variant] = Int(try row.integer("matured_\(position)"))
        }
        let first = try row.integer("first_exposed"), last = try row.integer("last_exposed")
        firstExposure = min(firstExposure ?? first, first)
        lastExposure = max(lastExposure ?? last, last)
    }

    /// Takes a row of ``LedgerRecords/outcomeCountsQuery(_:)``.
    mutating func addOutcomes(_ row: some LedgerRecordRow) throws {
        let variant = try row.text("variant")
        for position in horizons.indices {
            horizons[position].outcomes[variant] = Outcomes(
                startedTrial: Int(try row.integer("started_trial_\(position)")), paid: Int(try row.integer("paid_\(position)")),
                converted: Int(try row.integer("converted_\(position)")), refunded: Int(try row.integer("refunded_\(position)")))
        }
    }

    /// Takes a row of ``LedgerRecords/revenueQuery(_:capRanks:maturedCustomers:)``: a variant's
    /// figures in one currency, for every horizon.
    mutating func addRevenue(_ row: some LedgerRecordRow) throws {
        let variant = try row.text("variant"), currency = try row.text("currency")
        for position in horizons.indices {
            let customers = Int(try row.integer("customers_\(position)"))
            // A currency some customers paid in within another horizon's window only.
            guard customers > 0 else { continue }
            horizons[position].caps[currency] = try row.real("cap_\(position)")
            horizons[position].revenue[variant, default: [:]][currency] = RevenueTotals(
                customers: customers, sum: try row.real("net_sum_\(position)"), squares: try row.real("net_squares_\(position)"))
            horizons[position].capped[variant, default: [:]][currency] = RevenueTotals(
                sum: try row.real("capped_sum_\(position)"), squares: try row.real("capped_squares_\(position)"))
        }
    }

    /// Takes a row of ``LedgerRecords/currenciesLeftOutQuery(_:rates:)``.
    mutating func addCurrencyLeftOut(_ row: some LedgerRecordRow) throws {
        horizons[try horizonPosition(row)].currenciesLeftOut.append(try row.text("currency"))
    }

    /// The position of the horizon a row is about, checked.
    private func horizonPosition(_ row: some LedgerRecordRow) throws -> Int {
        let position = Int(try row.integer("horizon"))
        guard horizons.indices.contains(position) else {
            throw LedgerStorageFailure(message: "a report's row names horizon \(position) of \(horizons.count)", isTransient: false)
        }
        return position
    }

    /// Every matured customer of the phase for each horizon, whatever their variant.
    var maturedCustomers: [Int] { horizons.map(\.maturedCustomers) }

    /// Takes what `other`, the figures of a read of `part` for the same query, counted.
    mutating func take(_ part: ExperimentAggregatesPart, from other: Self) {
        switch part {
        case .exposures:
            exposed = other.exposed
            firstExposure = other.firstExposure
            lastExposure = other.lastExposure
            for position in horizons.indices { horizons[position].matured = other.horizons[position].matured }
        case .exposureChecks:
            policyVersions = other.policyVersions
            customersInSeveralVariants = other.customersInSeveralVariants
        case .outcomes:
            for position in horizons.indices { horizons[position].outcomes = other.horizons[position].outcomes }
        case .revenue:
            for position in horizons.indices {
                horizons[position].revenue = other.horizons[position].revenue
                horizons[position].capped = other.horizons[position].capped
                horizons[position].caps = other.horizons[position].caps
                horizons[position].currenciesLeftOut = other.horizons[position].currenciesLeftOut
            }
        }
    }

    /// The nearest rank of each horizon's revenue cap among the values of every customer matured for it.
    var capRanks: [Int] { horizons.map { query.capRank(customers: $0.maturedCustomers) } }

    /// The aggregates of each horizon, in the order of the query's, every variant listing every currency.
    func aggregates() -> [ExperimentAggregates] {
        zip(query.horizons, horizons).map { days, figures in aggregates(horizonDays: days, figures) }
    }

    private func aggregates(horizonDays: Int, _ figures: HorizonFigures) -> ExperimentAggregates {
        let currencies = figures.currencies
        let variants = exposed.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { variant in
            let outcomes = figures.outcomes[variant] ?? Outcomes()
            let count = figures.matured[variant] ?? 0
            var netRevenue: [String: ExperimentRevenueSums] = [:]
            for currency in currencies {
                let uncapped = figures.revenue[variant]?[currency] ?? RevenueTotals()
                let cappedTotals = figures.capped[variant]?[currency] ?? RevenueTotals()
                netRevenue[currency] = ExperimentRevenueSums(uncapped: Self.inUnits(uncapped, count: count),
                                                             capped: Self.inUnits(cappedTotals, count: count))
            }
            return ExperimentVariantAggregates(
                variant: variant, exposedCustomers: exposed[variant] ?? 0, maturedCustomers: count,
                startedTrial: ExperimentMetricSums(count: count, successes: outcomes.startedTrial),
                paid: ExperimentMetricSums(count: count, successes: outcomes.paid),
                convertedTrialToPaid: ExperimentMetricSums(count: count, successes: outcomes.converted),
                refunded: ExperimentMetricSums(count: count, successes: outcomes.refunded), netRevenue: netRevenue)
        }
        var revenueCaps: [String: Double] = [:]
        for currency in currencies { revenueCaps[currency] = (figures.caps[currency] ?? 0) / Self.milliUnitsPerUnit }
        return ExperimentAggregates(
            experiment: query.experiment, phase: query.phase, horizonDays: horizonDays, asOf: query.asOf,
            revenueCapPercentile: query.revenueCapPercentile, variants: variants, revenueCaps: revenueCaps,
            targetCurrency: query.rates?.targetCurrency, currenciesLeftOut: figures.currenciesLeftOut, policyVersions: policyVersions,
            customersInSeveralVariants: customersInSeveralVariants,
            firstExposureDate: firstExposure.map(Date.init(millisecondsSince1970:)),
            lastExposureDate: lastExposure.map(Date.init(millisecondsSince1970:)))
    }

    /// Sums in milli-units over `count` customers, as figures in units of the currency.
    private static func inUnits(_ totals: RevenueTotals, count: Int) -> ExperimentMetricSums {
        ExperimentMetricSums(count: count, sum: totals.sum / milliUnitsPerUnit,
                             sumOfSquares: totals.squares / (milliUnitsPerUnit * milliUnitsPerUnit))
    }
}
