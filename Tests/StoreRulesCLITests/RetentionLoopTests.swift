import Foundation
import Testing
import TestPrerequisites

/// The cancel screen on one machine: a subscriber of the local store opens it; the store signs
/// a Retention Messaging request and posts it to `storerules serve`, which asks the policy's
/// `retention_message` hook on the customer's state and answers with Apple's body — a
/// promotional offer signed with the configured key, which the store verifies — on SQLite and
/// on PostgreSQL.
@Suite struct RetentionLoopTests {
    @Test("on SQLite, the cancel screen shows the policy's message: a signed offer, then a cheaper plan after a price rise")
    func cancelScreenOnSQLite() throws {
        try cancelScreen(backend: .sqlite)
    }

    @Test("on PostgreSQL, the cancel screen shows the policy's message: a signed offer, then a cheaper plan after a price rise",
          .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil), "set STORERULES_TEST_POSTGRES_URL to a PostgreSQL server"))
    func cancelScreenOnPostgreSQL() throws {
        try cancelScreen(backend: .postgres)
    }

    func cancelScreen(backend: LedgerReconcileTests.Backend) throws {
        let (store, _, service) = try ConsumptionLoopTests.serviceBesideStoreAPI(backend)
        defer { _ = service.terminate() }
        let token = UUID().uuidString.lowercased()
        #expect(try service.request("PUT", "/v1/customers/ana", json: ["app_account_token": token]).status < 300)
        try store.store(["settings", "--notification-url", "\(service.baseURL.absoluteString)/v1/notifications",
                         "--retention-url", "\(service.baseURL.absoluteString)/v1/apple/retention"])
        let bought = try store.storeJSON(["purchase", "pass.premium", "--customer", "ana", "--app-account-token", token])
        let transactionID = try #require((bought["transaction"] as? [String: Any])?["transactionId"] as? String)

        let offered = try store.storeJSON(["cancel-screen", transactionID])
        #expect(offered["status"] as? Int == 200)
        let shown = try #require(offered["shown"] as? [String: Any], "\(offered)")
        #expect(shown["kind"] as? String == "promotional_offer", "\(offered) \(service.standardError)")
        #expect(shown["offer_id"] as? String == "premium.three.months")
        #expect(shown["key_id"] as? String == store.key["key_id"])
        #expect(shown["message"] as? String == "4a9d6c2b-1e8f-4b7a-9c3d-5e6f7a8b9c0d")

        #expect(try service.request("POST", "/v1/customers/ana/events", json: ["name": "price_rise_seen"]).status == 200)
        let cheaper = try store.storeJSON(["cancel-screen", transactionID])
        let switched = try #require(cheaper["shown"] as? [String: Any])
        #expect(switched["kind"] as? String == "alternate_product", "\(cheaper)")
        #expect(switched["product_id"] as? String == "pass.family")
        #expect((cheaper["answer"] as? [String: Any])?["alternateProduct"] != nil)

        let metrics = try service.request("GET", "/metrics", key: ServeProcess.adminKey).text
        #expect(metrics.contains(#"storerules_decisions_total{hook="retention_message",source="policy"} 2"#), "\(metrics)")
    }

    @Test("without the key a promotional offer answers Apple's default message; a payload that does not verify is refused")
    func defaultWithoutKeyAndRefusalOfForgery() throws {
        let store = try StoreAPIProcess()
        try store.start()
        let rootPEM = try String(contentsOfFile: store.rootPath, encoding: .utf8)
        let service = try ServeProcess(ledger: store.directory.appending(path: "service.sqlite").path, rootPEM: rootPEM)
        defer { _ = service.terminate() }
        try store.store(["settings", "--retention-url", "\(service.baseURL.absoluteString)/v1/apple/retention"])
        let transactionID = try store.buy("pass.premium")
        let screen = try store.storeJSON(["cancel-screen", transactionID])
        let shown = try #require(screen["shown"] as? [String: Any])
        #expect(shown["kind"] as? String == "default", "\(screen)")
        #expect(screen["answer"] as? [String: Any] != nil && (screen["answer"] as? [String: Any])?.isEmpty == true, "\(screen)")
        #expect(service.standardError.contains("needs the in-app purchase key"), "\(service.standardError)")

        let forged = try service.request("POST", "/v1/apple/retention", json: ["signedPayload": "e30.e30.AAAA"], key: nil)
        #expect(forged.status == 400, "\(forged.status) \(forged.text)")
        let noStore = try CommandRunner.run(["store", "Examples/BackyardBirds", "--ledger", store.ledgerPath, "--environment", "Sandbox",
                                             "--bundle-id", StoreAPIProcess.bundleID, "cancel-screen", "2000000000000999"])
        #expect(noStore.status != 0)
    }

    @Test("a well-formed request signed under a root the service does not trust, or about another app, is refused with 400")
    func refusalOfUntrustedChainAndOtherApp() throws {
        let app = try StoreAPIProcess()
        let stranger = try StoreAPIProcess()
        // In Production, where a request names the app it is about by its Apple ID.
        func production(_ store: StoreAPIProcess, appAppleID: String = "1234", _ arguments: [String]) throws -> String {
            let result = try CommandRunner.run(["store", "Examples/BackyardBirds", "--ledger", store.ledgerPath, "--environment", "Production",
                                                "--app-apple-id", appAppleID, "--bundle-id", StoreAPIProcess.bundleID] + arguments)
            try #require(result.status == 0, "store \(arguments): \(result.standardError)")
            return result.standardOutput
        }
        func cancelScreen(_ store: StoreAPIProcess, appAppleID: String = "1234", of transactionID: String) throws -> Int? {
            let screen = try JSONSerialization.jsonObject(with: Data(try production(store, appAppleID: appAppleID,
                                                                                   ["cancel-screen", transactionID, "--json"]).utf8))
            return (screen as? [String: Any])?["status"] as? Int
        }
        let service = try ServeProcess(ledger: app.directory.appending(path: "service.sqlite").path,
                                       extra: ["--environment", "Production", "--app-apple-id", "1234"],
                                       rootPEM: try production(app, ["certificate"]))
        defer { _ = service.terminate() }
        var bought: [String] = []
        for store in [app, stranger] {
            try production(store, ["settings", "--retention-url", "\(service.baseURL.absoluteString)/v1/apple/retention"])
            let purchase = try JSONSerialization.jsonObject(with: Data(try production(store, ["purchase", "pass.premium", "--json"]).utf8))
            bought.append(try #require(((purchase as? [String: Any])?["transaction"] as? [String: Any])?["transactionId"] as? String))
        }
        #expect(try cancelScreen(app, of: bought[0]) == 200, "\(service.standardError)")
        #expect(try cancelScreen(app, appAppleID: "999", of: bought[0]) == 400, "another app, under the trusted root")
        #expect(try cancelScreen(stranger, of: bought[1]) == 400, "another store's root")
    }
}
