import Foundation
import StorePolicy
import StoreService
import Testing

@Suite struct HTTPRouterTests {
    @Test func aStorefrontIsTheSamePlanTheServiceDecidesWrittenAsJSONEncoderWritesIt() throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        _ = service.respond("PUT", "/v1/customers/ana", body: #"{"app_account_token": "5b1f7a3e-8d6c-4f2a-9e1b-2c3d4e5f6a7b"}"#)
        let response = service.respond("GET", "/v1/customers/ana/storefront", query: ["placement": "home"])
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/json")
        let plan = try service.router.service.storefrontPlan(customerID: "ana", placement: "home")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(response.body == (try encoder.encode(plan)) + Data([0x0A]))
        #expect(try JSONDecoder().decode(StorefrontPlan.self, from: response.body) == plan)
    }

    @Test func anUnknownPathIs404AndAKnownPathWithAnotherMethodIs405WithAllow() throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        let missing = service.respond("GET", "/v1/nothing")
        #expect(missing.status == 404)
        #expect(missing.errorKind == "not_found")
        let wrongMethod = service.respond("DELETE", "/v1/customers/ana")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["Allow"] == "GET, HEAD, PUT")
    }

    @Test func keysDecide401And403AndOpenRoutesNeedNone() throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        let anonymous = service.respond("GET", "/v1/customers/ana", key: nil)
        #expect(anonymous.status == 401)
        #expect(anonymous.headers["WWW-Authenticate"] == "Bearer")
        #expect(service.respond("GET", "/v1/customers/ana", key: "not-a-known-key-at-all").status == 401)
        #expect(service.respond("GET", "/v1/customers/ana", key: RouterTestService.adminKey).status == 403)
        #expect(service.respond("GET", "/metrics", key: RouterTestService.appKey).status == 403)
        #expect(service.respond("GET", "/metrics", key: RouterTestService.adminKey).status == 200)
        #expect(service.respond("GET", "/healthz", key: nil).status == 200)
        #expect(service.respond("POST", "/v1/notifications", key: nil, body: #"{"signedPayload": "x.y.z"}"#).status == 400)
    }

    @Test func badBodiesAndQueriesAre400NamingTheFieldAndOversizedBodies413() throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        let unknownField = service.respond("PUT", "/v1/customers/ana", body: #"{"app_acount_token": "x"}"#)
        #expect(unknownField.status == 400)
        #expect(String(decoding: unknownField.body, as: UTF8.self).contains("app_account_token"))
        let unknownQuery = service.respond("GET", "/v1/customers/ana/storefront", query: ["placment": "home"])
        #expect(unknownQuery.status == 400)
        #expect(String(decoding: unknownQuery.body, as: UTF8.self).contains("placement"))
        #expect(service.respond("POST", "/v1/customers/ana/events", body: "{").status == 400)
        let huge = String(repeating: " ", count: HTTPRouter.maximumBodyBytes + 1)
        #expect(service.respond("POST", "/v1/customers/ana/events", body: huge).status == 413)
        #expect(service.respond("GET", "/v1/customers/ana/storefront").status == 200, "the next request is answered")
    }
}
