import Foundation
import StoreCore
import StoreService
import StoreStatistics
import Testing

/// The experiment report on each ledger backend: the same generated population gives the same
/// report on SQLite and PostgreSQL, and its figures are StoreStatistics' over the ledger's
/// aggregates.
@Suite struct ExperimentReportBackendTests {
    typealias Population = LedgerExperimentAggregatesTests

    @Test func aGeneratedPopulationsReportIsTheSameOnEveryBackendAndItsFiguresAreStoreStatistics() throws {
        let asOf = LedgerPayloads.date(40 * LedgerPayloads.day)
        var reports: [ExperimentReport] = []
        for backend in LedgerBackend.available {
            let ledger = try Population.generatedPopulation(on: backend)
            let weights = [ExperimentVariantWeight(name: "control", weight: 50), ExperimentVariantWeight(name: "annual", weight: 50)]
            try ledger.recordExposures([], phases: [ExperimentPhaseRecord(experiment: "annual_first", phase: Population.phase, variants: weights,
                                                                          traffic: 100, firstRecordedDate: LedgerPayloads.date(0))])
            let report = try ExperimentReporter(ledger: ledger, declarations: [:])
                .report(asOf: asOf, options: ExperimentReportOptions(experiment: "annual_first", minimumCustomersPerVariant: 10))
            let phase = try #require(report.experiments.first?.phases.first { $0.phase == Population.phase }, "\(backend)")
            let aggregates = try ledger.experimentAggregates(experiment: "annual_first", phase: Population.phase, horizonDays: 14,
                                                             asOf: asOf, revenueCapPercentile: 99, rates: nil)
            let control = try #require(aggregates.variants.first { $0.variant == "control" })
            let annual = try #require(aggregates.variants.first { $0.variant == "annual" })
            #expect(phase.sampleRatio.pValue == SampleRatioMismatch.pValue(
                counts: [annual.exposedCustomers, control.exposedCustomers], weights: [50, 50]), "\(backend)")
            #expect(phase.notes.contains { $0.kind == .severalPolicyVersions }, "\(backend)")
            let fortnight = try #require(phase.horizons.first { $0.days == 14 })
            #expect(fortnight.maturedCustomers == ["annual": annual.maturedCustomers, "control": control.maturedCustomers])
            let paid = try #require(fortnight.metrics.first { $0.metric == "paid" }?.comparisons.first)
            let expected = SequentialTest.compare(control: ProportionSummary(count: control.paid.count, successes: control.paid.sum),
                                                  treatment: ProportionSummary(count: annual.paid.count, successes: annual.paid.sum),
                                                  difference: .relative)
            #expect(paid.relative.sequential == ExperimentReport.TestResult(expected), "\(backend)")
            for currency in ["EUR", "USD", "JPY"] {
                let revenue = try #require(fortnight.metrics.first { $0.metric == "net_revenue" && $0.currency == currency && $0.cap == nil })
                let sums = { (variant: ExperimentVariantAggregates) in
                    let figures = variant.netRevenue[currency]?.uncapped
                    return SampleSummary(count: figures?.count ?? 0, sum: figures?.sum ?? 0, sumOfSquares: figures?.sumOfSquares ?? 0)
                }
                #expect(revenue.comparisons.first?.absolute.fixedHorizon
                    == ExperimentReport.TestResult(FixedHorizonTest.compare(control: sums(control), treatment: sums(annual), difference: .absolute)))
            }
            reports.append(report)
        }
        #expect(Set(reports).count == 1, "SQLite and PostgreSQL give the same report")
    }
}
