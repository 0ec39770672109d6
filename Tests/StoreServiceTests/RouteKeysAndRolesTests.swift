import Foundation
import StoreService
import Testing

/// Keys and roles over the whole route table: `401` without a known key, `403` for the other
/// role, open routes for everyone, and the metrics that count each answer.
@Suite struct RouteKeysAndRolesTests {
    @Test("keys and roles: 401 without a known key, 403 for the other role, open routes for everyone")
    func authMatrix() throws {
        try RouterTestService.test { service in
            #expect(service.respond("GET", "/healthz", key: nil).status == 200)
            #expect(service.respond("GET", "/readyz", key: nil).status == 200)
            let missing = service.respond("GET", "/v1/customers/ana", key: nil)
            #expect(missing.status == 401)
            #expect(missing.headers["WWW-Authenticate"] == "Bearer")
            #expect(service.respond("GET", "/v1/customers/ana", key: "not-a-key-of-this-server").status == 401)
            #expect(service.respond("GET", "/v1/customers/ana", key: RouterTestService.adminKey).status == 403)
            #expect(service.respond("GET", "/v1/customers/ana/storefront", key: RouterTestService.appKey).status == 200)
            #expect(service.respond("GET", "/v1/admin/policy", key: RouterTestService.appKey).status == 403)
            #expect(service.respond("GET", "/metrics", key: nil).status == 401)
            for invented in ["FOO1", "FOO2", "FOO3"] {
                #expect(service.respond(invented, "/v1/customers/ana").status == 405)
            }
            let metrics = service.respond("GET", "/metrics", key: RouterTestService.adminKey)
            #expect(metrics.bodyText.contains(#"storerules_http_requests_total{route="/v1/customers/{id}",method="other",status="405"} 3"#),
                    "methods a client invents count as one label")
            #expect(!metrics.bodyText.contains("FOO1"))
            #expect(metrics.status == 200)
            #expect(metrics.headers["Content-Type"]?.hasPrefix("text/plain; version=0.0.4") == true)
            #expect(metrics.bodyText.contains(#"storerules_http_requests_total{route="/v1/customers/{id}",method="GET",status="403"} 1"#),
                    "\(metrics.bodyText)")
            #expect(metrics.bodyText.contains("storerules_policy_info{version="))
        }
    }
}
