import Foundation
import StoreCore
import StorePolicy
@testable import StoreService
import StoreStatistics
import Testing

/// The experiment report from a real SQLite ledger, every figure worked out by hand or by
/// StoreStatistics directly from the customers' values.
@Suite struct ExperimentReporterTests {
    static let annualFirst = ExperimentDeclaration(
        name: "annual_first", variants: [ExperimentVariantWeight(name: "control", weight: 1), ExperimentVariantWeight(name: "annual", weight: 1)])
    static let asOf = ExperimentLedgerFixture.start.addingTimeInterval(40 * ExperimentLedgerFixture.day)

    /// Four customers a side. Control: c0 starts a trial on day 1 and pays 9.99 for it on day 8;
    /// c1 buys 2.99 of pellets on day 2. Annual: a0 pays 49.99 on day 1; a1 pays 49.99 on day 1,
    /// refunded on day 3; a2 starts a trial on day 1.
    static func populated() throws -> ExperimentLedgerFixture {
        var fixture = try ExperimentLedgerFixture()
        try fixture.expose(["c0", "c1", "c2", "c3"], to: "control", of: annualFirst)
        try fixture.expose(["a0", "a1", "a2", "a3"], to: "annual", of: annualFirst)
        try fixture.purchase("c0", day: 1, trial: true, original: "c0-pass")
        try fixture.purchase("c0", day: 8, price: 9990, original: "c0-pass")
        try fixture.purchase("c1", day: 2, price: 2990)
        try fixture.purchase("a0", day: 1, price: 49990, original: "a0-pass")
        try fixture.purchase("a1", day: 1, price: 49990, original: "a1-pass", revokedOnDay: 3)
        try fixture.purchase("a2", day: 1, trial: true, original: "a2-pass")
        return fixture
    }

    private func horizon(_ report: ExperimentReport, days: Int) throws -> ExperimentReport.Horizon {
        try #require(report.experiments.first?.phases.first?.horizons.first { $0.days == days })
    }

    private func metric(_ horizon: ExperimentReport.Horizon, _ name: String, capped: Bool? = nil) throws -> ExperimentReport.Metric {
        try #require(horizon.metrics.first { $0.metric == name && (capped == nil || ($0.cap != nil) == capped) })
    }

    private func mean(_ metric: ExperimentReport.Metric, _ variant: String) -> Double? {
        metric.variants.first { $0.variant == variant }?.mean
    }

    @Test func eachMetricsMeansAndDifferencesAreTheCustomersFiguresComparedByStoreStatistics() throws {
        let fixture = try Self.populated()
        defer { fixture.remove() }
        let reporter = ExperimentReporter(ledger: fixture.ledger, declarations: ["annual_first": Self.annualFirst])
        let report = try reporter.report(asOf: Self.asOf, options: ExperimentReportOptions(revenueCapPercentile: 75, minimumCustomersPerVariant: 4))
        let phase = try #require(report.experiments.first?.phases.first)
        #expect(report.experiments.map(\.name) == ["annual_first"])
        #expect(phase.phase == Self.annualFirst.phase && phase.isServing && phase.weightsSource == .ledger)
        #expect(phase.variants.map(\.exposedCustomers) == [4, 4])
        #expect(phase.sampleRatio.pValue == 1 && !phase.sampleRatio.isMismatch)
        #expect(phase.notes.isEmpty, "\(phase.notes)")
        #expect(phase.horizons.map(\.days) == [7, 14, 30])

        let fortnight = try horizon(report, days: 14)
        #expect(fortnight.maturedCustomers == ["annual": 4, "control": 4] && fortnight.isTrustworthy)
        let trial = try metric(fortnight, "started_trial"), paidShare = try metric(fortnight, "paid")
        let convertedShare = try metric(fortnight, "converted_trial_to_paid"), refunded = try metric(fortnight, "refunded")
        #expect(mean(trial, "control") == 0.25 && mean(trial, "annual") == 0.25)
        #expect(mean(paidShare, "control") == 0.5 && mean(paidShare, "annual") == 0.5)
        #expect(mean(convertedShare, "control") == 0.25 && mean(convertedShare, "annual") == 0)
        #expect(mean(refunded, "annual") == 0.25 && mean(refunded, "control") == 0)
        // Net revenue per customer: control 9.99, 2.99, 0, 0; annual 49.99, 0 (refunded), 0, 0.
        let uncapped = try metric(fortnight, "net_revenue", capped: false)
        #expect(uncapped.currency == "USD")
        #expect(abs((mean(uncapped, "control") ?? 0) - 12.98 / 4) < 1e-9 && abs((mean(uncapped, "annual") ?? 0) - 49.99 / 4) < 1e-9)
        // The 75th percentile of the eight values by nearest rank is the 6th smallest: 2.99.
        let capped = try metric(fortnight, "net_revenue", capped: true)
        #expect(capped.cap == 2.99 && fortnight.revenueCaps["USD"] == 2.99)
        #expect(abs((mean(capped, "control") ?? 0) - 5.98 / 4) < 1e-9 && abs((mean(capped, "annual") ?? 0) - 2.99 / 4) < 1e-9)

        let control = SampleSummary(values: [9.99, 2.99, 0, 0]), annual = SampleSummary(values: [49.99, 0, 0, 0])
        let comparison = try #require(uncapped.comparisons.first)
        #expect(comparison.variant == "annual" && uncapped.comparisons.count == 1)
        let sequential = SequentialTest.compare(control: control, treatment: annual, difference: .relative)
        let fixed = FixedHorizonTest.compare(control: control, treatment: annual, difference: .absolute)
        try expectClose(comparison.relative.sequential, sequential)
        try expectClose(comparison.absolute.fixedHorizon, fixed)
        let paid = try #require(paidShare.comparisons.first)
        try expectClose(paid.absolute.sequential, SequentialTest.compare(
            control: ProportionSummary(count: 4, successes: 2), treatment: ProportionSummary(count: 4, successes: 2), difference: .absolute))

        // At 7 days control's payment on day 8 falls outside the window: only c1 paid, nobody converted.
        let week = try horizon(report, days: 7)
        let weekPaid = try metric(week, "paid"), weekConverted = try metric(week, "converted_trial_to_paid")
        let weekRevenue = try metric(week, "net_revenue", capped: false)
        #expect(mean(weekPaid, "control") == 0.25 && mean(weekConverted, "control") == 0)
        #expect(abs((mean(weekRevenue, "control") ?? 0) - 2.99 / 4) < 1e-9)
        let converted = try #require(weekConverted.comparisons.first)
        #expect(converted.relative.sequential.estimate == nil && converted.relative.sequential.undefinedReason == "control's mean is 0")
    }

    private func expectClose(_ result: ExperimentReport.TestResult, _ expected: MetricComparison,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (got, want) in [(result.estimate, expected.estimate), (result.lower, expected.lower), (result.upper, expected.upper),
                            (result.pValue, expected.pValue)] {
            let got = try #require(got, sourceLocation: sourceLocation), want = try #require(want, sourceLocation: sourceLocation)
            #expect(abs(got - want) < 1e-12, sourceLocation: sourceLocation)
        }
        #expect(result.isSignificant == expected.isSignificant, sourceLocation: sourceLocation)
    }

    @Test func onlyMaturedCustomersCountAndTooFewForAResultIsSaidWithTheThreshold() throws {
        var fixture = try ExperimentLedgerFixture()
        defer { fixture.remove() }
        try fixture.expose(["c0", "c1"], to: "control", of: Self.annualFirst)
        try fixture.expose(["a0"], to: "annual", of: Self.annualFirst)
        try fixture.expose(["late"], to: "annual", of: Self.annualFirst, daysAfterStart: 35)
        try fixture.purchase("late", day: 36, price: 1000)
        let reporter = ExperimentReporter(ledger: fixture.ledger, declarations: ["annual_first": Self.annualFirst])
        let report = try reporter.report(asOf: Self.asOf, options: ExperimentReportOptions(horizonDays: 3))
        let phase = try #require(report.experiments.first?.phases.first)
        #expect(phase.horizons.map(\.days) == [3, 7, 14, 30])
        #expect(phase.variants.first { $0.variant == "annual" }?.exposedCustomers == 2)
        // Exposed 5 days before the report, "late" has matured for 3 days only.
        #expect(phase.horizons.map { $0.maturedCustomers["annual"] } == [2, 1, 1, 1])
        let shortRevenue = try metric(phase.horizons[0], "net_revenue", capped: false)
        #expect(abs((mean(shortRevenue, "annual") ?? 0) - 0.5) < 1e-9)
        let notes = phase.notes.filter { $0.kind == .tooFewCustomers }
        #expect(notes.map(\.horizonDays) == [3, 7, 14, 30])
        #expect(notes.first?.message.contains("at least 100") == true, "\(notes)")
        #expect(phase.horizons.allSatisfy { !$0.isTrustworthy })
    }

    @Test func aSkewedSplitIsFlaggedBeforeAnyMetricAndItsFiguresAreNotTrusted() throws {
        let fixture = try ExperimentLedgerFixture()
        defer { fixture.remove() }
        try fixture.expose((0..<10).map { "c\($0)" }, to: "control", of: Self.annualFirst)
        try fixture.expose((0..<40).map { "a\($0)" }, to: "annual", of: Self.annualFirst, policyVersion: "v2")
        let report = try ExperimentReporter(ledger: fixture.ledger, declarations: [:])
            .report(asOf: Self.asOf, options: ExperimentReportOptions(minimumCustomersPerVariant: 5))
        let experiment = try #require(report.experiments.first)
        #expect(!experiment.isDeclared)
        let phase = try #require(experiment.phases.first)
        #expect(phase.weightsSource == .ledger && !phase.isServing)
        #expect(phase.sampleRatio.pValue == SampleRatioMismatch.pValue(counts: [40, 10], weights: [1, 1]))
        #expect(phase.sampleRatio.pValue < 0.001 && phase.sampleRatio.isMismatch)
        #expect(phase.notes.map(\.kind) == [.sampleRatioMismatch, .severalPolicyVersions])
        #expect(phase.policyVersions == ["v1", "v2"])
        #expect(phase.horizons.allSatisfy { !$0.isTrustworthy })
    }

    @Test func aDeclaredPhaseWithoutExposuresTakesItsWeightsFromThePolicy() throws {
        let fixture = try ExperimentLedgerFixture()
        defer { fixture.remove() }
        let reporter = ExperimentReporter(ledger: fixture.ledger, declarations: ["annual_first": Self.annualFirst])
        let phase = try #require(try reporter.report(asOf: Self.asOf).experiments.first?.phases.first)
        #expect(phase.weightsSource == .policy && phase.isServing)
        #expect(phase.variants.map(\.expectedShare) == [0.5, 0.5] && phase.variants.map(\.exposedCustomers) == [0, 0])
        #expect(throws: ExperimentReportError.unknownExperiment("annual_frist", known: ["annual_first"])) {
            try reporter.report(asOf: Self.asOf, options: ExperimentReportOptions(experiment: "annual_frist"))
        }
    }

    @Test func aCustomerInTwoVariantsIsNoted() {
        let facts = ExperimentAggregates(
            experiment: "annual_first", phase: "abc", horizonDays: 7, asOf: Self.asOf, revenueCapPercentile: 99, variants: [],
            revenueCaps: [:], targetCurrency: nil, currenciesLeftOut: [], policyVersions: ["v1"], customersInSeveralVariants: 1,
            firstExposureDate: nil, lastExposureDate: nil)
        let notes = ExperimentHealthChecks.phaseNotes(sampleRatio: .init(pValue: 1), facts: facts, variantNames: ["annual", "control"])
        #expect(notes.map(\.kind) == [.customerInSeveralVariants])
        #expect(ExperimentHealthChecks.phaseNotes(sampleRatio: .init(pValue: 1), facts: facts, variantNames: ["annual"])
            .map(\.kind) == [.customerInSeveralVariants, .noControl])
    }
}
