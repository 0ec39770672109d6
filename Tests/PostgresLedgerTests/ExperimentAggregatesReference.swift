import Foundation
import StoreCore

/// The aggregates of an experiment's phase worked out in Swift, one customer at a time, from
/// the ledger's exposures and transactions: what the database's aggregation must equal.
enum ExperimentAggregatesReference {
    static func aggregates(of ledger: Ledger, experiment: String, phase: String, horizonDays: Int, asOf: Date,
                           revenueCapPercentile: Double, rates: ExperimentCurrencyRates?) throws -> ExperimentAggregates {
        let exposures = try ledger.storage.read { try $0.exposures() }.filter { $0.experiment == experiment && $0.phase == phase }
        let horizon = TimeInterval(horizonDays) * 86_400
        var exposed: [String: Int] = [:], matured: [String: Int] = [:]
        var outcomes: [String: [[Bool]]] = [:]
        var revenue: [(variant: String, values: [String: Double])] = []
        var leftOut = Set<String>()
        for exposure in exposures {
            exposed[exposure.variant, default: 0] += 1
            let end = exposure.exposedDate.addingTimeInterval(horizon)
            guard end <= asOf else { continue }
            matured[exposure.variant, default: 0] += 1
            let window = try ledger.transactions(customerID: exposure.customerID)
                .filter { $0.purchaseDate >= exposure.exposedDate && $0.purchaseDate < end }
            let isTrial = { (t: StoredTransaction) in t.offerType?.rawValue == 1 && t.offerDiscountType == .freeTrial }
            let convertedTrial = window.contains { paid in
                (paid.price ?? 0) > 0 && window.contains { isTrial($0) && $0.originalID == paid.originalID && $0.purchaseDate < paid.purchaseDate }
            }
            outcomes[exposure.variant, default: []].append([
                window.contains(where: isTrial), window.contains { ($0.price ?? 0) > 0 }, convertedTrial,
                window.contains { $0.revocationDate.map { $0 < end } ?? false },
            ])
            var values: [String: Int64] = [:]
            for transaction in window {
                guard let price = transaction.price, let currency = transaction.currency else { continue }
                let revoked = transaction.revocationDate.map { $0 < end } ?? false
                values[currency, default: 0] += revoked ? 0 : price
            }
            revenue.append((exposure.variant, converted(values, rates: rates, leftOut: &leftOut)))
        }
        let currencies = Set(revenue.flatMap(\.values.keys))
        let maturedCount = revenue.count
        var caps: [String: Double] = [:]
        for currency in currencies {
            let sorted = revenue.map { $0.values[currency] ?? 0 }.sorted()
            let rank = max(1, Int((revenueCapPercentile * Double(maturedCount) / 100).rounded(.up)))
            caps[currency] = sorted[rank - 1]
        }
        let variants = exposed.keys.sorted().map { variant in
            let flags = outcomes[variant] ?? []
            let count = flags.count
            let figure = { (index: Int) in ExperimentMetricSums(count: count, successes: flags.filter { $0[index] }.count) }
            var netRevenue: [String: ExperimentRevenueSums] = [:]
            for currency in currencies {
                let values = revenue.filter { $0.variant == variant }.map { $0.values[currency] ?? 0 }
                let cap = caps[currency] ?? 0
                netRevenue[currency] = ExperimentRevenueSums(uncapped: sums(values, count: count),
                                                             capped: sums(values.map { min($0, cap) }, count: count))
            }
            return ExperimentVariantAggregates(
                variant: variant, exposedCustomers: exposed[variant] ?? 0, maturedCustomers: matured[variant] ?? 0,
                startedTrial: figure(0), paid: figure(1), convertedTrialToPaid: figure(2), refunded: figure(3), netRevenue: netRevenue)
        }
        let several = Dictionary(grouping: exposures, by: \.customerID).values.filter { Set($0.map(\.variant)).count > 1 }.count
        return ExperimentAggregates(
            experiment: experiment, phase: phase, horizonDays: horizonDays, asOf: asOf, revenueCapPercentile: revenueCapPercentile,
            variants: variants, revenueCaps: caps.mapValues { $0 / 1000 }, targetCurrency: rates?.targetCurrency,
            currenciesLeftOut: leftOut.sorted(), policyVersions: Set(exposures.map(\.policyVersion)).sorted(),
            customersInSeveralVariants: several, firstExposureDate: exposures.map(\.exposedDate).min(),
            lastExposureDate: exposures.map(\.exposedDate).max())
    }

    /// A customer's net revenue per currency in milli-units, or converted into the target
    /// currency, noting the currencies without a rate.
    private static func converted(_ values: [String: Int64], rates: ExperimentCurrencyRates?, leftOut: inout Set<String>) -> [String: Double] {
        guard let rates else { return values.mapValues(Double.init) }
        var total: Double?
        for (currency, milli) in values {
            let rate = currency == rates.targetCurrency ? rates.rates[currency] ?? 1 : rates.rates[currency]
            guard let rate else { leftOut.insert(currency); continue }
            total = (total ?? 0) + Double(milli) * rate
        }
        return total.map { [rates.targetCurrency: $0] } ?? [:]
    }

    /// The figures of values in milli-units, in units.
    private static func sums(_ values: [Double], count: Int) -> ExperimentMetricSums {
        ExperimentMetricSums(count: count, sum: values.reduce(0, +) / 1000, sumOfSquares: values.map { $0 * $0 }.reduce(0, +) / 1_000_000)
    }
}
