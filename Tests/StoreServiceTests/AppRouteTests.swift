import Foundation
import StoreService
import Testing

/// The app's routes: a transaction granted, the customer's state, a storefront plan,
/// decisions and events; bad requests get a clear error and change nothing.
@Suite struct AppRouteTests {
    typealias JSON = [String: Any]

    @Test("the app's routes: a transaction granted, the customer's state, a storefront plan and decisions")
    func appRoutes() throws {
        try RouterTestService.test { service in
            let box = try service.sign(BackyardBirdsPayloads.consumable(id: "7400", quantity: 3))
            let granted = try service.respond("POST", "/v1/transactions", json: ["customer": "dee", "signed_transaction": box])
            #expect(granted.status == 200, "\(granted.bodyText)")
            #expect(granted.object["outcome"] as? String == "granted")
            let state = service.respond("GET", "/v1/customers/dee")
            #expect(state.status == 200)
            #expect(state.object["customer"] as? String == "dee")
            #expect(state.object["policy_version"] as? String != nil)
            let plan = service.respond("GET", "/v1/customers/dee/storefront", query: ["placement": "home"])
            #expect(plan.status == 200, "\(plan.bodyText)")
            #expect(plan.object["placement"] as? String == "home")

            let decided = try service.respond("POST", "/v1/decisions/show_merchandising", json: ["ctx": JSON(), "args": ["home"]])
            #expect(decided.status == 200, "\(decided.bodyText)")
            #expect(decided.object["result"] is Bool)
            #expect(decided.object["source"] as? String == "policy")
            #expect(decided.object["trace"] == nil)
            let traced = service.respond("POST", "/v1/decisions/show_merchandising", query: ["trace": "1"],
                                         body: #"{"customer": "dee", "args": ["home"]}"#)
            #expect(traced.status == 200)
            #expect(traced.object["trace"] is JSON)
            #expect(traced.object["policy_version"] as? String == state.object["policy_version"] as? String)
            let wrong = try service.respond("POST", "/v1/decisions/plan_icon", json: ["ctx": JSON()])
            #expect(wrong.status == 422)
            #expect(wrong.errorKind == "decision")
        }
    }

    @Test("bad requests get a clear error and change nothing")
    func badRequests() throws {
        try RouterTestService.test { service in
            let box = try service.sign(BackyardBirdsPayloads.consumable(id: "7500"))
            let misspelled = try service.respond("POST", "/v1/transactions", json: ["customer": "eve", "signed_transction": box])
            #expect(misspelled.status == 400)
            #expect(misspelled.errorMessage?.contains("did you mean 'signed_transaction'") == true, "\(misspelled.bodyText)")
            let malformed = service.respond("POST", "/v1/transactions", body: "{\"customer\": ")
            #expect(malformed.status == 400)
            let query = service.respond("GET", "/v1/customers/eve/storefront", query: ["placment": "home"])
            #expect(query.status == 400)
            #expect(query.errorMessage?.contains("did you mean 'placement'") == true, "\(query.bodyText)")
            let oversized = service.respond("POST", "/v1/transactions", body: String(repeating: " ", count: 64 * 1024 + 1))
            #expect(oversized.status == 413)
            let unknown = service.respond("GET", "/v1/nothing")
            #expect(unknown.status == 404)
            #expect(unknown.errorKind == "not_found")
            let method = service.respond("DELETE", "/v1/customers/eve")
            #expect(method.status == 405)
            #expect(method.headers["Allow"] == "GET, HEAD, PUT")
            let badToken = try service.respond("PUT", "/v1/customers/eve", json: ["app_account_token": "not-a-uuid"])
            #expect(badToken.status == 400)
            let state = service.respond("GET", "/v1/customers/eve")
            #expect(state.status == 404, "the refused token recorded nobody")
            #expect(state.errorKind == "customer_not_found")
        }
    }

    @Test("an event posted for a customer is counted, and a frequency-capped hook sees it in the next decision")
    func eventsReachDecisions() throws {
        let folder = try ExampleFolderCopy(policy: """
            local policy = {}
            function policy.show_merchandising(ctx, placement)
              local shown = ctx.customer.events.paywall_shown
              return shown == nil or ctx.now - shown.last >= 3600
            end
            return policy
            """)
        defer { folder.remove() }
        try RouterTestService.test(configure: { $0.folder = folder.url.path }) { service in
            let before = try service.respond("POST", "/v1/decisions/show_merchandising", json: ["customer": "fay", "args": ["home"]])
            #expect(before.status == 200, "\(before.bodyText)")
            #expect(before.object["result"] as? Bool == true)
            let recorded = try service.respond("POST", "/v1/customers/fay/events", json: ["name": "paywall_shown", "placement": "home"])
            #expect(recorded.status == 200, "\(recorded.bodyText)")
            #expect((recorded.object["history"] as? JSON)?["count"] as? Int == 1)
            let after = try service.respond("POST", "/v1/decisions/show_merchandising", json: ["customer": "fay", "args": ["home"]])
            #expect(after.object["result"] as? Bool == false)
            let misnamed = try service.respond("POST", "/v1/customers/fay/events", json: ["nmae": "paywall_shown"])
            #expect(misnamed.status == 400)
            #expect(misnamed.errorMessage?.contains("did you mean 'name'") == true, "\(misnamed.bodyText)")
            let empty = try service.respond("POST", "/v1/customers/fay/events", json: ["name": ""])
            #expect(empty.status == 400)
        }
    }
}
