import Foundation
import StoreCore
import Testing

/// A report's aggregates of an experiment's phase, counted by the database: known answers for
/// a hand-built population, the same figures as a customer-by-customer count in Swift, and the
/// same on SQLite and PostgreSQL.
@Suite struct LedgerExperimentAggregatesTests {
    typealias Payloads = LedgerPayloads
    static let day = Payloads.day
    static let phase = "3f9a0c12e4b7"
    /// The report's time: 30 days after the first exposures.
    static let asOf = Payloads.date(30 * day)

    /// One purchase of `customer` at `day` (fractions by hours), in `currency`.
    struct Purchase {
        var id: String
        var originalID: String?
        var at: Int64
        var price: Int64
        var currency = "EUR"
        var trial = false
        var revokedAt: Int64?
        var product = "pellet.box"
    }

    /// Stores `purchases` of `customerID` through ingest, as the App Store would send them.
    static func ingest(_ purchases: [Purchase], customerID: String, into ledger: Ledger) throws {
        for purchase in purchases {
            var payload = Payloads.transaction(
                id: purchase.id, originalID: purchase.originalID, productID: purchase.product,
                type: purchase.product == "pellet.box" ? .consumable : .autoRenewableSubscription,
                purchasedAt: purchase.at, expiresAt: purchase.product == "pellet.box" ? nil : purchase.at + 3 * day,
                revokedAt: purchase.revokedAt)
            payload.price = purchase.price
            payload.currency = purchase.currency
            if purchase.trial {
                payload.offerType = .introductoryOffer
                payload.offerDiscountType = .freeTrial
            }
            try ledger.ingest(transaction: payload, jwsRepresentation: Payloads.jws(payload), customerID: customerID, decide: Payloads.grants)
        }
    }

    static func expose(_ customerID: String, _ variant: String, at offset: Int64, into ledger: Ledger,
                       experiment: String = "annual_first", phase: String = phase, policyVersion: String = "v1") throws {
        try ledger.recordExposures([ExperimentExposure(customerID: customerID, experiment: experiment, phase: phase, variant: variant,
                                                       exposedDate: Payloads.date(offset), policyVersion: policyVersion, hook: "storefront")],
                                   phases: [])
    }

    /// Seven customers exposed to annual_first with a horizon of 7 days, and one of another
    /// experiment: trials that convert and do not, refunds inside and outside the window, a
    /// customer not yet matured, and euros, dollars and pounds.
    static func population(on backend: LedgerBackend) throws -> Ledger {
        let ledger = try backend.freshLedger()
        // ana (control): a trial on day 1 that converts on day 4 at 9.99 €.
        try expose("ana", "control", at: 0, into: ledger)
        try ingest([Purchase(id: "a1", at: day, price: 0, trial: true, product: "pass.premium"),
                    Purchase(id: "a2", originalID: "a1", at: 4 * day, price: 9990, product: "pass.premium")], customerID: "ana", into: ledger)
        // bo (control): 1.99 $ refunded within the window, 4.99 $ refunded after it.
        try expose("bo", "control", at: 0, into: ledger, policyVersion: "v2")
        try ingest([Purchase(id: "b1", at: 2 * day, price: 1990, currency: "USD", revokedAt: 3 * day),
                    Purchase(id: "b2", at: 5 * day, price: 4990, currency: "USD", revokedAt: 10 * day)], customerID: "bo", into: ledger)
        // gus (control): 2.99 £, refunded after the window.
        try expose("gus", "control", at: 0, into: ledger)
        try ingest([Purchase(id: "g1", at: day, price: 2990, currency: "GBP", revokedAt: 9 * day)], customerID: "gus", into: ledger)
        // cy (annual): bought before the exposure and after the window only.
        try expose("cy", "annual", at: 0, into: ledger)
        try ingest([Purchase(id: "c1", at: -day, price: 990), Purchase(id: "c2", at: 8 * day, price: 990)], customerID: "cy", into: ledger)
        // di (annual, exposed on day 1): a trial that does not convert, and 29.99 € on another subscription.
        try expose("di", "annual", at: day, into: ledger)
        try ingest([Purchase(id: "d1", at: day, price: 0, trial: true, product: "pass.premium"),
                    Purchase(id: "d2", at: 6 * day, price: 29990, product: "pass.annual")], customerID: "di", into: ledger)
        // ed (annual): a trial on day 5 whose paid period comes on day 8, after the window.
        try expose("ed", "annual", at: 0, into: ledger)
        try ingest([Purchase(id: "e1", at: 5 * day, price: 0, trial: true, product: "pass.premium"),
                    Purchase(id: "e2", originalID: "e1", at: 8 * day, price: 9990, product: "pass.premium")], customerID: "ed", into: ledger)
        // fay (annual): exposed on day 25, not matured by day 30.
        try expose("fay", "annual", at: 25 * day, into: ledger)
        try ingest([Purchase(id: "f1", at: 26 * day, price: 99990)], customerID: "fay", into: ledger)
        // hu: another experiment.
        try expose("hu", "control", at: 0, into: ledger, experiment: "paywall_copy")
        try ingest([Purchase(id: "h1", at: day, price: 4990)], customerID: "hu", into: ledger)
        return ledger
    }

    /// The figures of customers' values given in milli-units, the other customers of `count` at 0.
    static func figures(count: Int, milliUnits: [Double]) -> ExperimentMetricSums {
        ExperimentMetricSums(count: count, sum: milliUnits.reduce(0, +) / 1000, sumOfSquares: milliUnits.map { $0 * $0 }.reduce(0, +) / 1_000_000)
    }

    static func aggregates(_ ledger: Ledger, percentile: Double = 100, rates: ExperimentCurrencyRates? = nil) throws -> ExperimentAggregates {
        try ledger.experimentAggregates(experiment: "annual_first", phase: phase, horizonDays: 7, asOf: asOf,
                                        revenueCapPercentile: percentile, rates: rates)
    }

    @Test("a hand-built population gives the counts, outcomes and revenue worked out by hand", arguments: LedgerBackend.available)
    func knownAnswers(on backend: LedgerBackend) throws {
        let report = try Self.aggregates(Self.population(on: backend), percentile: 80)
        #expect(report.variants.map(\.variant) == ["annual", "control"])
        let annual = try #require(report.variants.first), control = try #require(report.variants.last)
        #expect([annual.exposedCustomers, annual.maturedCustomers, control.exposedCustomers, control.maturedCustomers] == [Int]([4, 3, 3, 3]))
        #expect(control.startedTrial == ExperimentMetricSums(count: 3, successes: 1))
        #expect(control.paid == ExperimentMetricSums(count: 3, successes: 3))
        #expect(control.convertedTrialToPaid == ExperimentMetricSums(count: 3, successes: 1))
        #expect(control.refunded == ExperimentMetricSums(count: 3, successes: 1), "bo's refund within the window; not bo's or gus's after it")
        #expect(annual.startedTrial == ExperimentMetricSums(count: 3, successes: 2))
        #expect(annual.paid == ExperimentMetricSums(count: 3, successes: 1), "cy's purchases and ed's paid period are outside the windows")
        #expect(annual.convertedTrialToPaid == ExperimentMetricSums(count: 3, successes: 0), "di paid for another subscription")
        #expect(annual.refunded == ExperimentMetricSums(count: 3, successes: 0))
        #expect(Set(control.netRevenue.keys) == ["EUR", "GBP", "USD"])
        #expect(control.netRevenue["EUR"]?.uncapped == Self.figures(count: 3, milliUnits: [9990]))
        #expect(control.netRevenue["USD"]?.uncapped == Self.figures(count: 3, milliUnits: [4990]))
        #expect(annual.netRevenue["EUR"]?.uncapped == Self.figures(count: 3, milliUnits: [29990]))
        #expect(annual.netRevenue["GBP"]?.uncapped == ExperimentMetricSums(count: 3, sum: 0, sumOfSquares: 0))
        // Six matured customers: the 80th percentile is the 5th smallest value. In euros the values
        // are 0, 0, 0, 0 (ed's free trial), 9.99 and 29.99, so di's 29.99 is capped at 9.99.
        #expect(report.revenueCaps == ["EUR": 9.99, "GBP": 0, "USD": 0])
        #expect(annual.netRevenue["EUR"]?.capped == Self.figures(count: 3, milliUnits: [9990]))
        #expect(control.netRevenue["EUR"]?.capped == control.netRevenue["EUR"]?.uncapped)
        #expect(control.netRevenue["USD"]?.capped == ExperimentMetricSums(count: 3, sum: 0, sumOfSquares: 0))
        #expect(report.policyVersions == ["v1", "v2"])
        #expect(report.customersInSeveralVariants == 0)
        #expect(report.firstExposureDate == Payloads.date(0) && report.lastExposureDate == Payloads.date(25 * Self.day))
        #expect(report.targetCurrency == nil && report.currenciesLeftOut.isEmpty)
    }

    @Test("with rates, revenue is converted into one currency and a currency without a rate is left out", arguments: LedgerBackend.available)
    func ratesConvertAndLeaveOut(on backend: LedgerBackend) throws {
        let rates = ExperimentCurrencyRates(targetCurrency: "USD", rates: ["EUR": 1.25])
        let report = try Self.aggregates(Self.population(on: backend), rates: rates)
        #expect(report.targetCurrency == "USD" && report.currenciesLeftOut == ["GBP"])
        let annual = try #require(report.variants.first), control = try #require(report.variants.last)
        #expect(Array(control.netRevenue.keys) == ["USD"])
        #expect(control.netRevenue["USD"]?.uncapped == Self.figures(count: 3, milliUnits: [12487.5, 4990]),
                "ana's euros converted, bo's dollars as they are, gus's pounds left out")
        #expect(annual.netRevenue["USD"]?.uncapped == Self.figures(count: 3, milliUnits: [37487.5]))
        #expect(report.revenueCaps == ["USD": 37.4875], "the 100th percentile is the largest value")
    }

    @Test("the database's sums for every horizon at once equal a customer-by-customer count in Swift",
          arguments: LedgerBackend.available, [false, true])
    func sumsEqualSwift(on backend: LedgerBackend, withRates: Bool) throws {
        let ledger = try Self.generatedPopulation(on: backend)
        let rates = withRates ? ExperimentCurrencyRates(targetCurrency: "EUR", rates: ["USD": 0.75, "JPY": 0.0078125]) : nil
        let horizons = [14, 3, 30, 7, 14]
        for percentile in [50.0, 95, 100] {
            let reports = try ledger.experimentAggregates(experiment: "annual_first", phase: Self.phase, horizons: horizons, asOf: Self.asOf,
                                                          revenueCapPercentile: percentile, rates: rates)
            #expect(reports.map(\.horizonDays) == horizons, "one report per horizon asked, in the order asked")
            for report in reports {
                let reference = try ExperimentAggregatesReference.aggregates(
                    of: ledger, experiment: "annual_first", phase: Self.phase, horizonDays: report.horizonDays, asOf: Self.asOf,
                    revenueCapPercentile: percentile, rates: rates)
                #expect(report == reference, "at the \(percentile)th percentile over \(report.horizonDays) days")
            }
            let fortnight = reports[0]
            #expect(fortnight.variants.allSatisfy { $0.maturedCustomers > 0 && $0.maturedCustomers < $0.exposedCustomers })
            #expect(fortnight.variants.allSatisfy { $0.convertedTrialToPaid.sum > 0 && $0.refunded.sum > 0 && $0.paid.sum > $0.convertedTrialToPaid.sum },
                    "the population has conversions, refunds and purchases without a trial")
            #expect(Set(reports.map { $0.variants.map(\.maturedCustomers) }).count == 4, "each horizon matures its own customers")
        }
    }

    @Test("SQLite and PostgreSQL give identical aggregates", .enabled(if: LedgerBackend.available.count == 2))
    func backendsAgree() throws {
        let rates = ExperimentCurrencyRates(targetCurrency: "EUR", rates: ["USD": 0.75])
        let reports = try LedgerBackend.allCases.map { backend in
            let ledger = try Self.generatedPopulation(on: backend)
            return try [nil, rates].map {
                try ledger.experimentAggregates(experiment: "annual_first", phase: Self.phase, horizonDays: 14, asOf: Self.asOf,
                                                revenueCapPercentile: 90, rates: $0)
            }
        }
        #expect(reports[0] == reports[1])
    }

    @Test("an unknown phase has no variants, and bad arguments are refused before the database is read")
    func emptyPhaseAndBadArguments() throws {
        let ledger = try LedgerBackend.sqlite.freshLedger()
        let empty = try ledger.experimentAggregates(experiment: "annual_first", phase: "none", horizonDays: 7, asOf: Self.asOf,
                                                    revenueCapPercentile: 99, rates: nil)
        #expect(empty.variants.isEmpty && empty.revenueCaps.isEmpty && empty.firstExposureDate == nil && empty.policyVersions.isEmpty)
        let bad: [(Int, Double, ExperimentCurrencyRates?)] = [
            (0, 99, nil), (7, 0, nil), (7, 100.5, nil), (7, .nan, nil),
            (7, 99, ExperimentCurrencyRates(targetCurrency: "EUR", rates: ["USD": -1])),
            (7, 99, ExperimentCurrencyRates(targetCurrency: "", rates: [:])),
        ]
        for (horizon, percentile, rates) in bad {
            #expect(throws: LedgerError.self) {
                try ledger.experimentAggregates(experiment: "annual_first", phase: Self.phase, horizonDays: horizon, asOf: Self.asOf,
                                                revenueCapPercentile: percentile, rates: rates)
            }
        }
        #expect(throws: LedgerError.invalidExperiment("a report needs at least one horizon")) {
            try ledger.experimentAggregates(experiment: "annual_first", phase: Self.phase, horizons: [], asOf: Self.asOf,
                                            revenueCapPercentile: 99, rates: nil)
        }
    }
}
