import Foundation
import StoreCore
import Testing

/// `storerules serve` driven over real HTTP: every route, its answers and its errors.
@Suite(.serialized) struct ServeRouteTests {
    typealias JSON = [String: Any]

    @Test("a notification posted as Apple posts it is processed once, and a tampered one stores nothing")
    func notificationsAsApplePostsThem() throws {
        let server = try ServeProcess()
        let box = try SignedFixtures.sign(SignedFixtures.consumable(id: "7001", quantity: 2))
        let token = "6a1f0c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b"
        _ = try server.request("PUT", "/v1/customers/ana", json: ["app_account_token": token])
        _ = try server.request("POST", "/v1/transactions", json: ["customer": "ana", "signed_transaction": box])
        let pass = try SignedFixtures.sign(SignedFixtures.pass(original: "7100", period: 0, of: 1))
        _ = try server.request("POST", "/v1/transactions", json: ["customer": "ana", "signed_transaction": pass])
        let renewal = try SignedFixtures.sign(SignedFixtures.pass(original: "7100", period: 1, of: 2))
        let signedPayload = try SignedFixtures.sign(SignedFixtures.notification(
            type: .didRenew, uuid: "9c000000-0000-4000-8000-000000009001", signedTransaction: renewal))
        // Apple's request body, byte for byte as its documentation shows it, and no API key.
        let body = Data(#"{"signedPayload":"\#(signedPayload)"}"#.utf8)
        let first = try server.request("POST", "/v1/notifications", body: body, key: nil)
        #expect(first.status == 200, "\(first.text)")
        #expect(first.json["status"] as? String == "processed")
        #expect((first.json["transaction"] as? JSON)?["customer"] as? String == "ana")
        let again = try server.request("POST", "/v1/notifications", body: body, key: nil)
        #expect(again.status == 200)
        #expect(again.json["status"] as? String == "already_processed")

        // A new purchase of ana's (her token), whose notification's signature is tampered with:
        // nothing of it is stored.
        let before = try server.request("GET", "/v1/customers/ana").json
        var bought = SignedFixtures.consumable(id: "7002", quantity: 3)
        bought.appAccountToken = token
        let purchase = try SignedFixtures.sign(bought)
        let fresh = try SignedFixtures.sign(SignedFixtures.notification(
            type: .oneTimeCharge, uuid: "9c000000-0000-4000-8000-000000009002", signedTransaction: purchase))
        let tampered = String(fresh.dropLast(4)) + (fresh.hasSuffix("AAAA") ? "BBBB" : "AAAA")
        let refused = try server.request("POST", "/v1/notifications", json: ["signedPayload": tampered], key: nil)
        #expect(refused.status == 400)
        #expect(refused.errorKind == "verification")
        let after = try server.request("GET", "/v1/customers/ana").json
        #expect(after["balances"] as? [String: Int] == before["balances"] as? [String: Int])
        #expect(after["balances"] as? [String: Int] == ["pellet": 10])
        #expect(after["entitlements"] as? [String] == before["entitlements"] as? [String])
        #expect(after["unfinished_transactions"] as? [String] == [])
        let garbage = try server.request("POST", "/v1/notifications", body: Data("{\"signedPayload\": 5}".utf8), key: nil)
        #expect(garbage.status == 400)
        #expect(garbage.errorKind == "bad_request")
    }

    @Test("a notification for a customer not known yet is kept, answered 200, and granted when the customer registers")
    func notificationsForUnknownCustomersAreKept() throws {
        let server = try ServeProcess()
        let token = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"
        var payload = SignedFixtures.consumable(id: "7200", quantity: 1)
        payload.appAccountToken = token
        let notification = try SignedFixtures.sign(SignedFixtures.notification(
            type: .oneTimeCharge, signedTransaction: try SignedFixtures.sign(payload)))
        let kept = try server.request("POST", "/v1/notifications", json: ["signedPayload": notification], key: nil)
        #expect(kept.status == 200)
        #expect(kept.json["status"] as? String == "pending")
        let registered = try server.request("PUT", "/v1/customers/bea", json: ["app_account_token": token])
        #expect(registered.status == 200, "\(registered.text)")
        #expect(registered.json["notifications_processed"] as? Int == 1)
        let customer = try server.request("GET", "/v1/customers/bea")
        #expect(customer.status == 200)
        #expect((customer.json["balances"] as? JSON)?["pellet"] as? Int == 5, "granted once: \(customer.text)")
    }

    @Test("a customer registered with Swift's upper-case UUID receives the notification signed in lower case at once")
    func upperCaseTokensReceiveTheirPurchases() throws {
        let server = try ServeProcess()
        let token = UUID().uuidString
        let registered = try server.request("PUT", "/v1/customers/eli", json: ["app_account_token": token])
        #expect(registered.status == 200)
        #expect(registered.json["app_account_token"] as? String == token.lowercased())
        var payload = SignedFixtures.consumable(id: "7250", quantity: 1)
        payload.appAccountToken = token.lowercased()
        let notification = try SignedFixtures.sign(SignedFixtures.notification(
            type: .oneTimeCharge, signedTransaction: try SignedFixtures.sign(payload)))
        let posted = try server.request("POST", "/v1/notifications", json: ["signedPayload": notification], key: nil)
        #expect(posted.status == 200)
        #expect(posted.json["status"] as? String == "processed", "\(posted.text)")
        #expect((try server.request("GET", "/v1/customers/eli").json["balances"] as? JSON)?["pellet"] as? Int == 5)
    }

    @Test("a notification contradicting a stored transaction is answered 200, kept as a conflict, counted and listed by ledger check")
    func conflictingNotificationsAreKept() throws {
        let server = try ServeProcess()
        let bought = try SignedFixtures.sign(SignedFixtures.consumable(id: "7400"))
        #expect(try server.request("POST", "/v1/transactions", json: ["customer": "dee", "signed_transaction": bought]).status == 200)
        let contradicting = try SignedFixtures.sign(SignedFixtures.consumable(id: "7400", productID: "pellet.bag"))
        let notification = try SignedFixtures.sign(SignedFixtures.notification(type: .oneTimeCharge, signedTransaction: contradicting))
        let posted = try server.request("POST", "/v1/notifications", json: ["signedPayload": notification], key: nil)
        #expect(posted.status == 200, "\(posted.text)")
        #expect(posted.json["status"] as? String == "conflict")
        let again = try server.request("POST", "/v1/notifications", json: ["signedPayload": notification], key: nil)
        #expect(again.json["status"] as? String == "already_processed")
        let metrics = try server.request("GET", "/metrics", key: ServeProcess.adminKey).text
        #expect(metrics.contains(#"storerules_ingests_total{kind="notification",outcome="conflict"} 1"#), "\(metrics)")
        let check = try CommandRunner.run(["ledger", "check", "--ledger", server.directory.appendingPathComponent("ledger.sqlite").path])
        #expect(check.status == 1)
        #expect(check.standardOutput.contains("is kept as a conflict: transaction 7400"), "\(check.standardOutput)")
    }

    @Test("a product the catalog does not list is stored unfinished, with the reason, and answered 200")
    func productsTheCatalogLacksAreKeptUnfinished() throws {
        let server = try ServeProcess()
        _ = try server.request("PUT", "/v1/customers/cy", json: [String: Any]())
        let unknown = try SignedFixtures.sign(SignedFixtures.consumable(id: "7300", productID: "seed.bag.new"))
        let notification = try SignedFixtures.sign(SignedFixtures.notification(type: .oneTimeCharge, signedTransaction: unknown))
        let first = try server.request("POST", "/v1/transactions", json: ["customer": "cy", "signed_transaction": unknown])
        #expect(first.status == 200, "\(first.text)")
        #expect(first.json["outcome"] as? String == "unfinished")
        #expect((first.json["reason"] as? String)?.isEmpty == false)
        let posted = try server.request("POST", "/v1/notifications", json: ["signedPayload": notification], key: nil)
        #expect(posted.status == 200)
        let customer = try server.request("GET", "/v1/customers/cy")
        #expect(customer.json["unfinished_transactions"] as? [String] == ["7300"])
    }

    @Test("the app's routes: a transaction granted, the customer's state, a storefront plan and decisions")
    func appRoutes() throws {
        let server = try ServeProcess()
        let box = try SignedFixtures.sign(SignedFixtures.consumable(id: "7400", quantity: 3))
        let granted = try server.request("POST", "/v1/transactions", json: ["customer": "dee", "signed_transaction": box])
        #expect(granted.status == 200, "\(granted.text)")
        #expect(granted.json["outcome"] as? String == "granted")
        let state = try server.request("GET", "/v1/customers/dee")
        #expect(state.status == 200)
        #expect(state.json["customer"] as? String == "dee")
        #expect(state.json["policy_version"] as? String != nil)
        let plan = try server.request("GET", "/v1/customers/dee/storefront?placement=home")
        #expect(plan.status == 200, "\(plan.text)")
        #expect(plan.json["placement"] as? String == "home")

        let decided = try server.request("POST", "/v1/decisions/show_merchandising", json: ["ctx": [String: Any](), "args": ["home"]])
        #expect(decided.status == 200, "\(decided.text)")
        #expect(decided.json["result"] is Bool)
        #expect(decided.json["source"] as? String == "policy")
        #expect(decided.json["trace"] == nil)
        let traced = try server.request("POST", "/v1/decisions/show_merchandising?trace=1", json: ["customer": "dee", "args": ["home"]])
        #expect(traced.status == 200)
        #expect(traced.json["trace"] is JSON)
        #expect(traced.json["policy_version"] as? String == state.json["policy_version"] as? String)
        let wrong = try server.request("POST", "/v1/decisions/plan_icon", json: ["ctx": [String: Any]()])
        #expect(wrong.status == 422)
        #expect(wrong.errorKind == "decision")
    }

    @Test("bad requests get a clear error and change nothing")
    func badRequests() throws {
        let server = try ServeProcess()
        let box = try SignedFixtures.sign(SignedFixtures.consumable(id: "7500"))
        let misspelled = try server.request("POST", "/v1/transactions", json: ["customer": "eve", "signed_transction": box])
        #expect(misspelled.status == 400)
        #expect(misspelled.errorMessage?.contains("did you mean 'signed_transaction'") == true, "\(misspelled.text)")
        let malformed = try server.request("POST", "/v1/transactions", body: Data("{\"customer\": ".utf8))
        #expect(malformed.status == 400)
        let query = try server.request("GET", "/v1/customers/eve/storefront?placment=home")
        #expect(query.status == 400)
        #expect(query.errorMessage?.contains("did you mean 'placement'") == true, "\(query.text)")
        let oversized = try server.request("POST", "/v1/transactions", body: Data(repeating: 0x20, count: 64 * 1024 + 1))
        #expect(oversized.status == 413)
        let unknown = try server.request("GET", "/v1/nothing")
        #expect(unknown.status == 404)
        #expect(unknown.errorKind == "not_found")
        let method = try server.request("DELETE", "/v1/customers/eve")
        #expect(method.status == 405)
        #expect(method.headers["allow"] == "GET, HEAD, PUT")
        let badToken = try server.request("PUT", "/v1/customers/eve", json: ["app_account_token": "not-a-uuid"])
        #expect(badToken.status == 400)
        let state = try server.request("GET", "/v1/customers/eve")
        #expect(state.status == 404, "the refused token recorded nobody")
        #expect(state.errorKind == "customer_not_found")
    }

    @Test("keys and roles: 401 without a known key, 403 for the other role, open routes for everyone")
    func authMatrix() throws {
        let server = try ServeProcess()
        #expect(try server.request("GET", "/healthz", key: nil).status == 200)
        #expect(try server.request("GET", "/readyz", key: nil).status == 200)
        let missing = try server.request("GET", "/v1/customers/ana", key: nil)
        #expect(missing.status == 401)
        #expect(missing.headers["www-authenticate"] == "Bearer")
        #expect(try server.request("GET", "/v1/customers/ana", key: "not-a-key-of-this-server").status == 401)
        #expect(try server.request("GET", "/v1/customers/ana", key: ServeProcess.adminKey).status == 403)
        #expect(try server.request("GET", "/v1/customers/ana/storefront", key: ServeProcess.appKey).status == 200)
        #expect(try server.request("GET", "/v1/admin/policy", key: ServeProcess.appKey).status == 403)
        #expect(try server.request("GET", "/metrics", key: nil).status == 401)
        for invented in ["FOO1", "FOO2", "FOO3"] {
            #expect(try server.request(invented, "/v1/customers/ana").status == 405)
        }
        let metrics = try server.request("GET", "/metrics", key: ServeProcess.adminKey)
        #expect(metrics.text.contains(#"storerules_http_requests_total{route="/v1/customers/{id}",method="other",status="405"} 3"#),
                "methods a client invents count as one label")
        #expect(!metrics.text.contains("FOO1"))
        #expect(metrics.status == 200)
        #expect(metrics.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(metrics.text.contains(#"storerules_http_requests_total{route="/v1/customers/{id}",method="GET",status="403"} 1"#), "\(metrics.text)")
        #expect(metrics.text.contains("storerules_policy_info{version="))
    }

    @Test("administration: the policy, a reload that fails keeps the old one, and a retry of unfinished transactions")
    func adminRoutes() throws {
        let server = try ServeProcess()
        let policy = try server.request("GET", "/v1/admin/policy", key: ServeProcess.adminKey)
        #expect(policy.status == 200)
        let version = try #require(policy.json["version"] as? String)
        #expect((policy.json["hooks"] as? [String])?.contains("grant") == true)
        let policyURL = server.folder.appendingPathComponent("policy.lua")
        let original = try String(contentsOf: policyURL, encoding: .utf8)
        try "this is not Lua".write(to: policyURL, atomically: true, encoding: .utf8)
        let broken = try server.request("POST", "/v1/admin/reload", key: ServeProcess.adminKey)
        #expect(broken.status == 422)
        #expect(try server.request("GET", "/v1/admin/policy", key: ServeProcess.adminKey).json["version"] as? String == version)
        try (original + "\n-- edited\n").write(to: policyURL, atomically: true, encoding: .utf8)
        let reloaded = try server.request("POST", "/v1/admin/reload", key: ServeProcess.adminKey)
        #expect(reloaded.status == 200)
        #expect(reloaded.json["previous_version"] as? String == version)
        // A transaction the catalog does not list stays unfinished; the retry asks again for it.
        let unlisted = try SignedFixtures.sign(SignedFixtures.consumable(id: "7600", productID: "seed.bag.new"))
        #expect(try server.request("POST", "/v1/transactions", json: ["customer": "gil", "signed_transaction": unlisted])
            .json["outcome"] as? String == "unfinished")
        let retried = try server.request("POST", "/v1/admin/retry-unfinished", key: ServeProcess.adminKey)
        #expect(retried.status == 200)
        let transactions = (retried.json["transactions"] as? [JSON]) ?? []
        #expect(transactions.compactMap { $0["transaction_id"] as? String } == ["7600"], "\(retried.text)")
        #expect(transactions.first?["outcome"] as? String == "unfinished")
        // Once the catalog lists the product and the policy has its rule, the retry grants it,
        // and nothing is left to retry.
        let ruled = original.replacingOccurrences(of: #"["pellet.box"]    = { { item = "pellet", amount = 5 } },"#,
                                                  with: #"["pellet.box"]    = { { item = "pellet", amount = 5 } }, ["seed.bag.new"] = { { item = "pellet", amount = 3 } },"#)
        #expect(ruled != original)
        try ruled.write(to: policyURL, atomically: true, encoding: .utf8)
        let catalogURL = server.folder.appendingPathComponent("Products.storekit")
        let catalog = try String(contentsOf: catalogURL, encoding: .utf8)
        let listed = catalog.replacingOccurrences(of: #""products" : ["#, with: #"""
            "products" : [
                {"displayPrice": "1.99", "familyShareable": false, "internalID": "5EEDBA60", "productID": "seed.bag.new",
                 "localizations": [{"description": "A bag of seeds.", "displayName": "Seed Bag", "locale": "en_US"}],
                 "referenceName": "Seed Bag", "type": "Consumable"},
            """#)
        #expect(listed != catalog)
        try listed.write(to: catalogURL, atomically: true, encoding: .utf8)
        #expect(try server.request("POST", "/v1/admin/reload", key: ServeProcess.adminKey).status == 200)
        let granted = try server.request("POST", "/v1/admin/retry-unfinished", key: ServeProcess.adminKey)
        let grants = (granted.json["transactions"] as? [JSON]) ?? []
        #expect(grants.compactMap { $0["transaction_id"] as? String } == ["7600"], "\(granted.text)")
        #expect(grants.first?["outcome"] as? String == "granted", "\(granted.text)")
        #expect((grants.first?["balances"] as? JSON)?["pellet"] as? Int == 3, "\(granted.text)")
        let again = try server.request("POST", "/v1/admin/retry-unfinished", key: ServeProcess.adminKey)
        #expect((again.json["transactions"] as? [JSON])?.isEmpty == true, "\(again.text)")
    }

    @Test("the server survives bytes that are not HTTP and answers the next request; SIGTERM ends it with status 0")
    func survivesGarbageAndStopsOnSIGTERM() throws {
        let server = try ServeProcess()
        let port = server.baseURL.port ?? 0
        let garbage = Process()
        garbage.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        garbage.arguments = ["-c", """
            import socket
            for payload in [b"\\x00\\xff GARBAGE\\r\\n\\r\\n", b"GET / HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: -5\\r\\n\\r\\n", b"POST /v1/notifications HTTP/1.1\\r\\nHost: x\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\nZZ\\r\\n"]:
                s = socket.create_connection(("127.0.0.1", \(port)))
                s.sendall(payload)
                s.settimeout(5)
                answer = s.recv(4096)
                s.close()
                assert answer.startswith(b"HTTP/1.1 400 "), answer
                assert b"application/json" in answer, answer
            """]
        try garbage.run()
        garbage.waitUntilExit()
        #expect(garbage.terminationStatus == 0, "each payload is answered 400 in JSON")
        #expect(try server.request("GET", "/healthz", key: nil).status == 200)
        #expect(server.terminate() == 0)
    }

    @Test("without keys the server refuses to start, unless told to serve without them on loopback only")
    func refusesToStartWithoutKeys() throws {
        let folder = CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds").path
        let ledger = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).sqlite").path
        let common = ["serve", folder, "--ledger", ledger, "--bundle-id", ServiceProcess.bundleId, "--environment", "Xcode"]
        let noKeys = try CommandRunner.run(common + ["--listen", "127.0.0.1:0"])
        #expect(noKeys.status == 64)
        #expect(noKeys.standardError.contains("missing --api-keys FILE"))
        let open = try CommandRunner.run(common + ["--listen", "0.0.0.0:0", "--insecure-no-auth"])
        #expect(open.status == 64)
        #expect(open.standardError.contains("only on a loopback address"))
        #expect(!FileManager.default.fileExists(atPath: ledger))
        let server = try ServeProcess(auth: false)
        #expect(try server.request("GET", "/v1/customers/ana/storefront", key: nil).status == 200)
    }
}

/// Merchandising events over HTTP: recorded for a customer, seen by the next decision.
@Suite struct ServeEventTests {
    @Test("an event posted for a customer is counted, and a frequency-capped hook sees it in the next decision")
    func eventsReachDecisions() throws {
        let folder = try CommandRunner.policyFolder("""
            local policy = {}
            function policy.show_merchandising(ctx, placement)
              local shown = ctx.customer.events.paywall_shown
              return shown == nil or ctx.now - shown.last >= 3600
            end
            return policy
            """, files: ["Products.storekit": try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent(
                "Examples/BackyardBirds/Products.storekit"), encoding: .utf8)])
        let server = try ServeProcess(folder: folder)
        let before = try server.request("POST", "/v1/decisions/show_merchandising", json: ["customer": "fay", "args": ["home"]])
        #expect(before.status == 200, "\(before.text)")
        #expect(before.json["result"] as? Bool == true)
        let recorded = try server.request("POST", "/v1/customers/fay/events", json: ["name": "paywall_shown", "placement": "home"])
        #expect(recorded.status == 200, "\(recorded.text)")
        #expect((recorded.json["history"] as? [String: Any])?["count"] as? Int == 1)
        let after = try server.request("POST", "/v1/decisions/show_merchandising", json: ["customer": "fay", "args": ["home"]])
        #expect(after.json["result"] as? Bool == false)
        let misnamed = try server.request("POST", "/v1/customers/fay/events", json: ["nmae": "paywall_shown"])
        #expect(misnamed.status == 400)
        #expect(misnamed.errorMessage?.contains("did you mean 'name'") == true, "\(misnamed.text)")
        let empty = try server.request("POST", "/v1/customers/fay/events", json: ["name": ""])
        #expect(empty.status == 400)
    }
}
