import Foundation
import SignedData

/// Puts together an ``ExperimentAggregates`` from the rows of the statements of
/// `LedgerRecords+ExperimentAggregates`, a row per variant (and currency) at a time.
struct ExperimentAggregatesBuilder {
    /// Net revenue sums of one variant in one currency, in milli-units.
    private struct RevenueTotals {
        var customers = 0
        var sum = 0.0
        var squares = 0.0
    }

    /// How many of a variant's matured customers said yes to each yes-or-no metric.
    private struct Outcomes {
        var startedTrial = 0
        var paid = 0
        var converted = 0
        var refunded = 0
    }

    /// Milli-units in a unit of a currency.
    private static let milliUnitsPerUnit = 1000.0

    let query: ExperimentAggregatesQuery
    private var exposed: [String: (customers: Int, matured: Int)] = [:]
    private var firstExposure: Int64?
    private var lastExposure: Int64?
    private var outcomes: [String: Outcomes] = [:]
    private var revenue: [String: [String: RevenueTotals]] = [:]
    private var capped: [String: [String: RevenueTotals]] = [:]
    private var caps: [String: Double] = [:]
    /// The currencies left out for want of a rate.
    var currenciesLeftOut: [String] = []
    /// The policy versions of the phase's exposures.
    var policyVersions: [String] = []
    /// The customers exposed to more than one variant.
    var customersInSeveralVariants = 0

    init(query: ExperimentAggregatesQuery) {
        self.query = query
    }

    /// Takes a row of ``LedgerRecords/exposureCountsQuery(_:)``.
    mutating func addExposures(_ row: some LedgerRecordRow) throws {
        exposed[try row.text("variant")] = (Int(try row.integer("exposed")), Int(try row.integer("matured")))
        let first = try row.integer("first_exposed"), last = try row.integer("last_exposed")
        firstExposure = min(firstExposure ?? first, first)
        lastExposure = max(lastExposure ?? last, last)
    }

    /// Takes a row of ``LedgerRecords/outcomeCountsQuery(_:)``.
    mutating func addOutcomes(_ row: some LedgerRecordRow) throws {
        outcomes[try row.text("variant")] = Outcomes(
            startedTrial: Int(try row.integer("started_trial")),
            paid: Int(try row.integer("paid")), converted: Int(try row.integer("converted")), refunded: Int(try row.integer("refunded")))
    }

    /// Takes a row of ``LedgerRecords/revenueQuery(_:capRank:maturedCustomers:)``.
    mutating func addRevenue(_ row: some LedgerRecordRow) throws {
        let variant = try row.text("variant"), currency = try row.text("currency")
        caps[currency] = try row.real("cap")
        revenue[variant, default: [:]][currency] = RevenueTotals(
            customers: Int(try row.integer("customers")), sum: try row.real("net_sum"), squares: try row.real("net_squares"))
        capped[variant, default: [:]][currency] = RevenueTotals(sum: try row.real("capped_sum"), squares: try row.real("capped_squares"))
    }

    /// Every matured customer of the phase, whatever their variant.
    var maturedCustomers: Int { exposed.values.reduce(0) { $0 + $1.matured } }

    /// Every currency some matured customer has a revenue value in, by code.
    private var currencies: [String] {
        Set(revenue.values.flatMap(\.keys)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The nearest rank of the revenue cap among the values of every matured customer.
    var capRank: Int { query.capRank(customers: maturedCustomers) }

    /// The aggregates, every variant listing every currency.
    func aggregates() -> ExperimentAggregates {
        let currencies = currencies
        let variants = exposed.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { variant in
            let counts = exposed[variant] ?? (0, 0)
            let figures = outcomes[variant] ?? Outcomes()
            let count = counts.matured
            var netRevenue: [String: ExperimentRevenueSums] = [:]
            for currency in currencies {
                let uncapped = revenue[variant]?[currency] ?? RevenueTotals()
                let cappedTotals = capped[variant]?[currency] ?? RevenueTotals()
                netRevenue[currency] = ExperimentRevenueSums(uncapped: Self.inUnits(uncapped, count: count),
                                                             capped: Self.inUnits(cappedTotals, count: count))
            }
            return ExperimentVariantAggregates(
                variant: variant, exposedCustomers: counts.customers, maturedCustomers: counts.matured,
                startedTrial: ExperimentMetricSums(count: count, successes: figures.startedTrial),
                paid: ExperimentMetricSums(count: count, successes: figures.paid),
                convertedTrialToPaid: ExperimentMetricSums(count: count, successes: figures.converted),
                refunded: ExperimentMetricSums(count: count, successes: figures.refunded), netRevenue: netRevenue)
        }
        var revenueCaps: [String: Double] = [:]
        for currency in currencies { revenueCaps[currency] = (caps[currency] ?? 0) / Self.milliUnitsPerUnit }
        return ExperimentAggregates(
            experiment: query.experiment, phase: query.phase, horizonDays: query.horizonDays, asOf: query.asOf,
            revenueCapPercentile: query.revenueCapPercentile, variants: variants, revenueCaps: revenueCaps,
            targetCurrency: query.rates?.targetCurrency, currenciesLeftOut: currenciesLeftOut, policyVersions: policyVersions,
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
