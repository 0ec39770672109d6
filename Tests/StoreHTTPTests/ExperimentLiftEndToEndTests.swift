import Foundation
import StoreCore
import StorePolicy
import StoreService
import StoreTesting
import Testing
import TestPrerequisites

/// An experiment from the first storefront to its statistics: a generated population reads
/// its storefronts through the service, which records who saw which variant; a driver buys
/// the pass through the local store more often in one variant; the experiment report finds
/// that lift, and finds none in an A/A experiment run on the same customers.
@Suite struct ExperimentLiftEndToEndTests {
    /// Two experiments every storefront reads: `paywall`, whose `annual` variant the driver
    /// buys from twice as often, and `twin_paywall`, whose variants the driver treats alike.
    static let policy = PolicySource(text: """
        local policy = { experiments = {
            paywall = { variants = { control = 1, annual = 1 } },
            twin_paywall = { variants = { control = 1, twin = 1 } },
        } }
        function policy.product_style(ctx, product)
            local paywall, twin = ctx.experiments.paywall, ctx.experiments.twin_paywall
            if product.id == "pass.premium" and (paywall == "annual" or twin == "twin") then return "large" end
            return "regular"
        end
        return policy
        """, chunkName: "policy.lua")
    static let customers = 2_000
    /// The chance that a customer starts the pass's free trial, by their `paywall` variant.
    static let buyingChance = ["control": 0.15, "annual": 0.30]

    /// A fixed seed: the population, its purchases and so the verdicts are the same on every run.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: ServedStoreLoop.backends)
    func theReportFindsTheLiftAndNotTheTwin(backend: String) throws {
        let directory = try TestFolders.make("experiment-lift")
        defer { try? FileManager.default.removeItem(at: directory) }
        let authority = try SigningAuthority.generate()
        let store = try ServedStoreLoop.store(in: directory, authority: authority, environment: .sandbox, appAppleID: nil)
        var configuration = ServiceConfiguration(
            folder: ServedStoreLoop.packageRoot.appending(path: "Examples/BackyardBirds").path,
            ledger: try ServedStoreLoop.freshLedger(backend, in: directory),
            rootCertificates: [authority.rootCertificate], bundleId: ServedStoreLoop.bundleID, environment: .sandbox)
        configuration.policy = Self.policy
        let service = try Service(configuration: configuration)

        var random = SeededGenerator(state: 20_261_204)
        var trials = 0
        for index in 0..<Self.customers {
            let customer = "watcher\(index)"
            let plan = try service.storefrontPlan(customerID: customer, placement: "store")
            let variant = try #require(plan.exposures.first { $0.experiment == "paywall" }?.variant, "the first storefront exposes \(customer)")
            guard Double.random(in: 0..<1, using: &random) < Self.buyingChance[variant, default: 0] else { continue }
            guard case .success(let trial) = try store.purchase("pass.premium", customer: customer) else {
                Issue.record("the store refused \(customer)'s purchase")
                continue
            }
            _ = try service.answer(.ingestTransaction(customerID: customer, jws: trial.jwsRepresentation))
            trials += 1
        }
        #expect(trials > Self.customers / 10)

        let lift = try Self.startedTrial(in: "paywall", treatment: "annual", ledger: service.ledger)
        #expect(lift.isSignificant && (lift.lower ?? 0) > 0, "the annual variant's lift: \(lift)")
        #expect(abs((lift.estimate ?? 0) - 0.15) < 0.05, "near the driver's 15 points: \(lift)")
        let twin = try Self.startedTrial(in: "twin_paywall", treatment: "twin", ledger: service.ledger)
        #expect(!twin.isSignificant, "an A/A experiment finds no lift: \(twin)")
    }

    /// The report's fixed-horizon comparison of the share of customers who started a trial
    /// within a day of their first exposure, `treatment` against `control`.
    static func startedTrial(in experiment: String, treatment: String, ledger: Ledger) throws -> ExperimentReport.TestResult {
        let report = try ExperimentReporter(ledger: ledger, declarations: [:]).report(
            asOf: Date().addingTimeInterval(2 * 86_400), options: ExperimentReportOptions(experiment: experiment, horizonDays: 1))
        let phase = try #require(report.experiments.first?.phases.first)
        let day = try #require(phase.horizons.first { $0.days == 1 })
        #expect(day.maturedCustomers.values.reduce(0, +) == customers, "every customer is exposed once and matured")
        let metric = try #require(day.metrics.first { $0.metric == "started_trial" })
        return try #require(metric.comparisons.first { $0.variant == treatment }).absolute.fixedHorizon
    }
}
