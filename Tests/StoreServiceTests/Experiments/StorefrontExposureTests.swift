import Foundation
import LuaBridge
import SQLiteLedger
import StoreCore
import StorePolicy
import StoreService
import Testing

/// A storefront shows a variant only once the ledger holds it: the first read of a customer's
/// variant is recorded before the plan is answered, later reads write nothing, and a ledger
/// that cannot take the write makes the plan fail rather than show an unrecorded variant.
@Suite struct StorefrontExposureTests {
    /// Backyard Birds' hero experiment, open only to customers whose host marks them as beta testers.
    static let audiencePolicy = PolicySource(text: """
        local policy = { experiments = { sampler_hero = { variants = { control = 1, sampler = 1 },
            audience = function(ctx) return ctx.customer.attributes.beta == true end } } }
        function policy.product_style(ctx, product)
            if product.id == (ctx.experiments.sampler_hero == "sampler" and "food.sampler" or "pellet.box") then return "large" end
            return "regular"
        end
        return policy
        """, chunkName: "policy.lua")

    @Test func aStorefrontRecordsTheCustomersFirstExposureOnce() throws {
        try RouterTestService.test { service in
            #expect(service.respond("PUT", "/v1/customers/ana").status == 200)
            let first = service.respond("GET", "/v1/customers/ana/storefront", query: ["placement": "shop"])
            #expect(first.status == 200, "\(first.bodyText)")
            let stored = try Self.allExposures(service.router.service)
            let exposure = try #require(stored.first)
            #expect(stored.count == 1)
            #expect(exposure.customerID == "ana" && exposure.experiment == "sampler_hero" && exposure.hook == "product_style")
            #expect(exposure.placement == "shop")
            #expect(exposure.policyVersion == first.object["policy_version"] as? String && !exposure.policyVersion.isEmpty)
            #expect(Self.hero(of: first) == (exposure.variant == "sampler" ? "food.sampler" : "pellet.box"), "the plan shows the stored variant")

            for _ in 0..<2 {
                let again = service.respond("GET", "/v1/customers/ana/storefront", query: ["placement": "home"])
                #expect(again.status == 200 && Self.hero(of: again) == Self.hero(of: first))
            }
            #expect(try Self.allExposures(service.router.service) == stored, "later reads write nothing")
        }
    }

    @Test func aCustomerOutsideTheAudienceRecordsNothing() throws {
        try RouterTestService.test(configure: {
            $0.policy = Self.audiencePolicy
            $0.customerAttributes = { id in id == "bea" ? ["beta": .boolean(true)] : [:] }
        }) { (service: RouterTestService) throws in
            for customer in ["ana", "cy"] {
                #expect(service.respond("GET", "/v1/customers/\(customer)/storefront").status == 200)
                #expect(service.respond("PUT", "/v1/customers/\(customer)").status == 200)
                #expect(service.respond("GET", "/v1/customers/\(customer)").status == 200)
            }
            #expect(try Self.allExposures(service.router.service).isEmpty)
            #expect(service.respond("GET", "/v1/customers/bea/storefront").status == 200)
            #expect(try Self.allExposures(service.router.service).map(\.customerID) == ["bea"], "the audience's customer is recorded")
        }
    }

    @Test func aLedgerThatCannotTakeTheExposureShowsNothing() throws {
        try RouterTestService.test { service in
            #expect(service.respond("PUT", "/v1/customers/ana").status == 200)
            let database = try Database(path: service.folder.appending(path: "ledger.sqlite").path)
            try database.write {
                try $0.execute("CREATE TRIGGER refuse_exposures BEFORE INSERT ON experiment_exposure BEGIN SELECT RAISE(ABORT, 'disk full'); END")
            }
            let refused = service.respond("GET", "/v1/customers/ana/storefront")
            #expect(refused.status == 503, "\(refused.bodyText)")
            #expect(refused.object["products"] == nil && refused.errorKind == "storage", "nothing of the plan is shown")
            #expect(try Self.allExposures(service.router.service).isEmpty)
            try database.write { try $0.execute("DROP TRIGGER refuse_exposures") }
            #expect(service.respond("GET", "/v1/customers/ana/storefront").status == 200)
            #expect(try Self.allExposures(service.router.service).count == 1)
        }
    }

    @Test func theDecisionRouteRecordsForACustomerNotForAContextGivenInFull() throws {
        try RouterTestService.test { service in
            #expect(service.respond("PUT", "/v1/customers/ana").status == 200)
            let given = service.respond("POST", "/v1/decisions/product_style",
                                        body: #"{"ctx": {"customer": {"id": "ana"}}, "args": ["food.sampler"]}"#)
            #expect(given.status == 200, "\(given.bodyText)")
            #expect(try Self.allExposures(service.router.service).isEmpty)
            let decided = service.respond("POST", "/v1/decisions/product_style",
                                          body: #"{"customer": "ana", "args": ["food.sampler"]}"#)
            #expect(decided.status == 200, "\(decided.bodyText)")
            let stored = try Self.allExposures(service.router.service)
            #expect(stored.count == 1 && stored.first?.customerID == "ana" && stored.first?.hook == "product_style")
            #expect((decided.object["result"] as? String) == (stored.first?.variant == "sampler" ? "large" : "regular"))
        }
    }

    /// Every exposure the service's ledger holds.
    static func allExposures(_ service: Service) throws -> [ExperimentExposure] {
        try service.ledger.storage.read { try $0.exposures() }
    }

    /// The product a storefront answer shows as its hero.
    static func hero(of response: HTTPResponse) -> String? {
        let products = response.object["products"] as? [[String: Any]] ?? []
        return products.first { $0["style"] as? String == "large" }?["id"] as? String
    }
}
