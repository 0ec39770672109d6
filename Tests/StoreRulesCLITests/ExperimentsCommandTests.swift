import Foundation
import SQLiteLedger
import StoreCore
import StoreTesting
import Testing
import TestPrerequisites

/// `storerules experiments report`: its options reach the report, and it prints JSON, text or
/// an HTML page. The report's figures are tested in process (StoreServiceTests).
@Suite struct ExperimentsCommandTests {
    @Test func theReportTakesItsOptionsAndPrintsJSONTextOrAPage() throws {
        let folder = try TestFolders.make("experiments")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledgerPath = folder.appending(path: "ledger.sqlite").path
        let report = ["experiments", "report", "Examples/BackyardBirds", "--ledger", ledgerPath]
        let ledger = try Ledger(path: ledgerPath)
        let declared = try CommandRunner.run(report + ["--json"])
        #expect(declared.status == 0, "\(declared.standardError)")
        let phases = ((try JSONSerialization.jsonObject(with: Data(declared.standardOutput.utf8)) as? [String: Any])?["experiments"]
            as? [[String: Any]])?.first?["phases"] as? [[String: Any]]
        let phase = try #require(phases?.first?["phase"] as? String)
        #expect(phases?.first?["weights_source"] as? String == "policy")

        let start = Date(timeIntervalSince1970: 1_796_083_200)
        let weights = [ExperimentVariantWeight(name: "control", weight: 50), ExperimentVariantWeight(name: "sampler", weight: 50)]
        let exposures = ["c0", "c1", "s0", "s1"].map { customer in
            ExperimentExposure(customerID: customer, experiment: "sampler_hero", phase: phase, variant: customer.hasPrefix("c") ? "control" : "sampler",
                               exposedDate: start, policyVersion: "v1", hook: "storefront", placement: "store")
        }
        try ledger.recordExposures(exposures, phases: [ExperimentPhaseRecord(experiment: "sampler_hero", phase: phase, variants: weights,
                                                                             traffic: 100, firstRecordedDate: start)])
        let authority = try SigningAuthority.generate(name: "StoreRules Experiments Command")
        for (customer, currency, price) in [("c0", "USD", Int64(2990)), ("s0", "USD", 4990), ("s1", "EUR", 1990)] {
            let payload = JWSTransactionDecodedPayload(
                originalTransactionId: "\(customer)-1", transactionId: "\(customer)-1", bundleId: "com.example.backyardbirds",
                productId: "pellet.box", purchaseDate: start.addingTimeInterval(3600), originalPurchaseDate: start.addingTimeInterval(3600),
                quantity: 1, type: .consumable, inAppOwnershipType: .purchased, signedDate: start.addingTimeInterval(3600),
                environment: .sandbox, storefront: "USA", transactionReason: .purchase, currency: currency, price: price)
            try ledger.ingest(transaction: payload, jwsRepresentation: try authority.sign(payload), customerID: customer) { _ in [] }
        }
        let rates = folder.appending(path: "rates.json")
        try Data(#"{"USD": 1}"#.utf8).write(to: rates)
        let asOf = "2026-12-10"

        let json = try CommandRunner.run(report + ["--as-of", asOf, "--horizon", "3", "--rates", rates.path, "--cap-percentile", "50", "--json"])
        #expect(json.status == 0, "\(json.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["as_of"] as? String == "2026-12-10T00:00:00Z" && object["target_currency"] as? String == "USD")
        #expect(object["revenue_cap_percentile"] as? Double == 50)
        let horizons = ((object["experiments"] as? [[String: Any]])?.first?["phases"] as? [[String: Any]])?.first?["horizons"] as? [[String: Any]]
        #expect(horizons?.map { $0["days"] as? Int } == [3, 7, 14, 30])
        #expect(horizons?.first?["currencies_left_out"] as? [String] == ["EUR"])
        #expect((horizons?.first?["matured_customers"] as? [String: Int]) == ["control": 2, "sampler": 2])
        #expect(horizons?[2]["matured_customers"] as? [String: Int] == ["control": 0, "sampler": 0], "9 days in, 14 have not matured")

        let text = try CommandRunner.run(report + ["--as-of", asOf])
        #expect(text.status == 0 && text.standardOutput.contains("sampler_hero, phase \(phase) (serving)"), "\(text.standardError)")
        #expect(text.standardOutput.contains("  3 days") == false && text.standardOutput.contains("  14 days: no customer has matured yet"))
        let page = folder.appending(path: "report.html").path
        let html = try CommandRunner.run(report + ["--as-of", asOf, "--html", page])
        #expect(html.status == 0 && html.standardOutput == "wrote \(page)\n", "\(html.standardError)")
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("data-experiment=\"sampler_hero\""))
        let both = try CommandRunner.run(report + ["--json", "--html", page])
        #expect(both.status == 64 && both.standardError.contains("give --json or --html OUT, not both"))
        let badTime = try CommandRunner.run(report + ["--as-of", "yesterday"])
        #expect(badTime.status == 64 && badTime.standardError.hasPrefix(
            "storerules experiments: --as-of must be a UTC date, an ISO 8601 time or milliseconds since 1970, not 'yesterday'"),
            "\(badTime.standardError)")
    }
}
