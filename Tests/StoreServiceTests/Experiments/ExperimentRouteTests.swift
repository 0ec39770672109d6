import Foundation
import SQLiteLedger
import StoreCore
import StorePolicy
import StoreService
import Testing

/// `GET /v1/admin/experiments[/{name}]` through the router: the report of the serving policy's
/// experiments from the service's own ledger, for the admin role only.
@Suite struct ExperimentRouteTests {
    static let policy = PolicySource(text: """
        local policy = { experiments = { annual_first = { variants = { control = 1, annual = 1 } } } }
        return policy
        """, chunkName: "policy.lua")

    @Test func theAdminReadsTheReportOfTheServingPolicysExperimentsFromTheLedger() throws {
        try RouterTestService.test(configure: { $0.policy = Self.policy }) { service in
            let declaration = try #require(service.router.service.engine.experiments["annual_first"])
            let ledger = try Ledger(path: service.folder.appending(path: "ledger.sqlite").path)
            let start = Date(timeIntervalSince1970: 1_796_083_200)
            let exposures = ["c0", "c1", "c2", "a0"].map { customer in
                ExperimentExposure(customerID: customer, experiment: "annual_first", phase: declaration.phase,
                                   variant: customer.hasPrefix("c") ? "control" : "annual", exposedDate: start,
                                   policyVersion: service.router.service.engine.version, hook: "storefront", placement: "store")
            }
            try ledger.recordExposures(exposures, phases: [declaration.phaseRecord(at: start)])
            let admin = RouterTestService.adminKey
            let asOf = "2026-12-06T00:00:00Z"

            let one = service.respond("GET", "/v1/admin/experiments/annual_first", query: ["horizon", "as_of"].reduce(into: [:]) {
                $0[$1] = $1 == "horizon" ? "4" : asOf
            }, key: admin)
            #expect(one.status == 200, "\(one.bodyText)")
            #expect(one.object["as_of"] as? String == asOf && one.object["default_test"] as? String == "sequential")
            let experiments = one.object["experiments"] as? [[String: Any]] ?? []
            #expect(experiments.map { $0["name"] as? String } == ["annual_first"])
            let phase = (experiments.first?["phases"] as? [[String: Any]])?.first ?? [:]
            #expect(phase["phase"] as? String == declaration.phase && phase["weights_source"] as? String == "ledger")
            let variants = phase["variants"] as? [[String: Any]] ?? []
            #expect(variants.map { $0["variant"] as? String } == ["annual", "control"])
            #expect(variants.map { $0["exposed_customers"] as? Int } == [1, 3])
            let sampleRatio = phase["sample_ratio"] as? [String: Any] ?? [:]
            #expect(sampleRatio["mismatch"] as? Bool == false && sampleRatio["p_value"] as? Double != nil)
            // Five days after the exposures only the 4-day horizon has matured.
            let horizons = phase["horizons"] as? [[String: Any]] ?? []
            #expect(horizons.map { $0["days"] as? Int } == [4, 7, 14, 30])
            #expect(horizons.map { ($0["matured_customers"] as? [String: Int])?["control"] } == [3, 0, 0, 0])
            let notes = (phase["notes"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            #expect(notes == Array(repeating: "too_few_customers", count: 4))

            let all = service.respond("GET", "/v1/admin/experiments", key: admin)
            #expect(all.status == 200 && (all.object["experiments"] as? [Any])?.count == 1, "\(all.bodyText)")
            let unknown = service.respond("GET", "/v1/admin/experiments/annual_frist", key: admin)
            #expect(unknown.status == 404 && unknown.errorKind == "experiment_not_found")
            #expect(unknown.errorMessage?.contains("known: annual_first") == true, "\(unknown.bodyText)")
            #expect(service.respond("GET", "/v1/admin/experiments", query: ["horizon": "0"], key: admin).status == 400)
            #expect(service.respond("GET", "/v1/admin/experiments", query: ["as_of": "yesterday"], key: admin).status == 400)
            #expect(service.respond("GET", "/v1/admin/experiments", query: ["other": "1"], key: admin).status == 400)
            #expect(service.respond("GET", "/v1/admin/experiments").status == 403)
        }
    }
}
