import Foundation
import StoreCore
import StorePolicy
import StoreService
import Testing

/// Customer ids in paths: decoded strictly, checked by one rule, and known or not.
@Suite struct CustomerRouteTests {
    @Test("paths whose escapes are malformed, hide a NUL or a '/', or are not UTF-8 are 400, never folded",
          arguments: ["/v1/customers/carol%00attacker", "/v1/customers/%ff", "/v1/customers/%fe", "/v1/customers/a%2Fb",
                      "/v1/customers/a%2fb/storefront", "/v1/customers/%zz", "/v1/customers/abc%4", "/v1/customers/%c3%28"])
    func malformedEscapesAreRefused(path: String) throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        _ = service.respond("PUT", "/v1/customers/carol")
        let response = service.respond("GET", path)
        #expect(response.status == 400, "\(path)")
        #expect(response.errorKind == "bad_request", "\(path)")
        #expect(service.respond("GET", "/v1/customers/carol").status == 200, "the next request is answered")
    }

    @Test("ids that break the rule are 400 naming the rule, on every route that takes one")
    func idsBreakingTheRuleAre400() throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        let long = String(repeating: "x", count: 129)
        for (method, path, body) in [("GET", "/v1/customers/\(long)", ""), ("PUT", "/v1/customers/\(long)", ""),
                                     ("GET", "/v1/customers/tab%09id/storefront", ""),
                                     ("POST", "/v1/customers/bell%07/events", #"{"name": "paywall_shown"}"#),
                                     ("POST", "/v1/decisions/features", #"{"customer": "nul\u0000id"}"#),
                                     ("POST", "/v1/decisions/features", #"{"customer": ""}"#)] {
            let response = service.respond(method, path, body: body)
            #expect(response.status == 400, "\(method) \(path)")
            #expect(String(decoding: response.body, as: UTF8.self).contains("1 to 128 bytes of UTF-8 without control characters"),
                    "\(method) \(path)")
        }
        #expect(service.respond("GET", "/v1/customers/" + String(repeating: "x", count: 128) + "/storefront").status == 200)
    }

    @Test("an escaped id is the same customer as the plain one: a space, and UTF-8 escapes")
    func escapedIDsDecode() throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        #expect(service.respond("PUT", "/v1/customers/ana%20b%C3%A9").status == 200)
        let known = service.respond("GET", "/v1/customers/ana b%c3%a9")
        #expect(known.status == 200)
        #expect(known.object["customer"] as? String == "ana bé")
    }

    @Test("an id the ledger has never seen is 404 customer_not_found; its storefront answers, saying it is not known")
    func unknownCustomers() throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        let missing = service.respond("GET", "/v1/customers/nobody")
        #expect(missing.status == 404)
        #expect(missing.errorKind == "customer_not_found")
        let storefront = service.respond("GET", "/v1/customers/nobody/storefront")
        #expect(storefront.status == 200)
        #expect(storefront.object["customer_known"] as? Bool == false)
        _ = service.respond("PUT", "/v1/customers/nobody")
        #expect(service.respond("GET", "/v1/customers/nobody/storefront").object["customer_known"] as? Bool == true)
        #expect(service.respond("GET", "/v1/customers/nobody").status == 200)
    }

    @Test("an upper-case token is registered in canonical form; a case variant is the same token")
    func tokensAreCanonical() throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        let token = "F1A4F0F3-5C2B-4B6E-9D1A-0C8E2F4A6B7D"
        let registered = service.respond("PUT", "/v1/customers/ana", body: #"{"app_account_token": "\#(token)"}"#)
        #expect(registered.status == 200)
        #expect(registered.object["app_account_token"] as? String == token.lowercased())
        let twin = service.respond("PUT", "/v1/customers/bo", body: #"{"app_account_token": "\#(token.lowercased())"}"#)
        #expect(twin.status == 409)
        #expect(twin.errorMessage?.contains("another customer") == true && twin.errorMessage?.contains("ana") == false,
                "the answer does not say who holds the token: \(twin.bodyText)")
        let invalid = service.respond("PUT", "/v1/customers/cy", body: #"{"app_account_token": "not-a-uuid"}"#)
        #expect(invalid.status == 400)
        #expect(invalid.errorKind == "bad_request")
    }

    @Test("a new event name past the customer's cap is 422 naming the cap; traces keep a bounded history")
    func eventNamesAreCappedAndTracesBounded() throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        for index in 0..<Ledger.defaultMaximumEventNames {
            #expect(service.respond("POST", "/v1/customers/ana/events", body: #"{"name": "event_\#(index)"}"#).status == 200)
        }
        let refused = service.respond("POST", "/v1/customers/ana/events", body: #"{"name": "one_too_many"}"#)
        #expect(refused.status == 422)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("100 distinct event names"))
        for _ in 0..<30 {
            _ = service.respond("POST", "/v1/customers/ana/events", body: #"{"name": "paywall_shown"}"#)
        }
        _ = service.respond("POST", "/v1/customers/bo/events", body: #"{"name": "paywall_shown"}"#)
        for _ in 0..<30 {
            _ = service.respond("POST", "/v1/customers/bo/events", body: #"{"name": "paywall_shown"}"#)
        }
        let traced = service.respond("POST", "/v1/decisions/features", query: ["trace": "1"], body: #"{"customer": "bo"}"#)
        let trace = traced.object["trace"] as? [String: Any]
        let events = ((trace?["context"] as? [String: Any])?["customer"] as? [String: Any])?["events"] as? [String: Any]
        let shown = events?["paywall_shown"] as? [String: Any]
        #expect(shown?["count"] as? Int == 31)
        #expect((shown?["recent"] as? [Any])?.count == DecisionTrace.recentEventTimesKept)
    }

    @Test("a path with an empty segment is 400, never another route or customer",
          arguments: ["/v1/customers//storefront", "/v1/customers/a//storefront", "//v1/customers/zz", "/healthz/", "/v1//customers/a"])
    func emptySegmentsAreRefused(path: String) throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        let response = service.respond("PUT", path)
        #expect(response.status == 400, "\(path)")
        #expect(try service.router.service.ledger.customers().isEmpty, "\(path) registered nobody")
    }

    @Test("a ctx given in full names its customer by the same rule; event names and placements hold no control character")
    func idsNamesAndPlacementsInBodies() throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        #expect(service.respond("POST", "/v1/decisions/show_merchandising",
                                body: #"{"ctx": {"customer": {"id": "a\u0001"}}, "args": ["home"]}"#).status == 400)
        #expect(service.respond("POST", "/v1/decisions/show_merchandising", body: #"{"ctx": {}, "args": ["home"]}"#).status == 200)
        #expect(service.respond("POST", "/v1/customers/ana/events", body: #"{"name": "a\u0000b"}"#).status == 400)
        #expect(service.respond("POST", "/v1/customers/ana/events", body: #"{"name": "shown", "placement": "x\ty"}"#).status == 400)
        #expect(service.respond("GET", "/v1/customers/ana/storefront", query: ["placement": "%01"]).status == 400)
        #expect(service.respond("GET", "/v1/customers/ana/storefront", query: ["placement": String(repeating: "p", count: 65)]).status == 400)
        #expect(service.respond("GET", "/v1/customers/ana/storefront", query: ["placement": "home"]).status == 200)
    }
}
