import Foundation
import Testing
import TestPrerequisites

/// The test that matters for reconciliation: the local store delivers its notifications to a
/// `storerules serve`; the service is down for a stretch of the store's clock (deliveries fail,
/// are retried, some past the store's last retry); it comes back; one `ledger reconcile` later
/// every customer's ledger equals that of a ledger that never missed a notification, and a second
/// reconcile changes nothing — on SQLite and on PostgreSQL.
@Suite struct LedgerReconcileTests {
    enum Backend {
        case sqlite, postgres
    }

    static func ledger(_ backend: Backend, in store: StoreAPIProcess, named name: String) throws -> String {
        switch backend {
        case .sqlite: store.directory.appending(path: "\(name).sqlite").path
        case .postgres: try LedgerWorkspace.freshPostgresLedger()
        }
    }

    @Test("on SQLite, one reconcile after an outage makes the ledger equal to one that missed nothing; a second changes nothing")
    func reconcileAfterAnOutageOnSQLite() throws {
        try reconcileAfterAnOutage(backend: .sqlite)
    }

    @Test("on PostgreSQL, one reconcile after an outage makes the ledger equal to one that missed nothing; a second changes nothing",
          .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil), "set STORERULES_TEST_POSTGRES_URL to a PostgreSQL server"))
    func reconcileAfterAnOutageOnPostgreSQL() throws {
        try reconcileAfterAnOutage(backend: .postgres)
    }

    func reconcileAfterAnOutage(backend: Backend) throws {
        let store = try StoreAPIProcess()
        try store.store(["certificate"]).write(toFile: store.rootPath, atomically: true, encoding: .utf8)
        let rootPEM = try String(contentsOfFile: store.rootPath, encoding: .utf8)
        let serviceLedger = try Self.ledger(backend, in: store, named: "service")
        var service: ServeProcess? = try ServeProcess(ledger: serviceLedger, rootPEM: rootPEM)
        let tokens = ["ana": UUID().uuidString.lowercased(), "ben": UUID().uuidString.lowercased()]
        for (customer, token) in tokens {
            #expect(try service?.request("PUT", "/v1/customers/\(customer)", json: ["app_account_token": token]).status ?? 0 < 300)
        }
        func buy(_ product: String, _ customer: String) throws {
            try store.store(["purchase", product, "--customer", customer, "--app-account-token", tokens[customer] ?? ""])
        }
        try store.store(["settings", "--notification-url", "\(service?.baseURL.absoluteString ?? "")/v1/notifications"])
        try buy("pass.premium", "ana")
        try buy("pellet.box", "ben")

        _ = service?.terminate()
        service = nil
        try buy("nectar.cup", "ana")
        try buy("pass.individual", "ben")
        try store.store(["advance", "8D"])       // every retry of those two fails, and the store gives up
        try buy("pellet.box", "ana")
        try store.store(["advance", "1M"])       // renewals, and the last purchase's retries, fail too

        service = try ServeProcess(ledger: serviceLedger, rootPEM: rootPEM)
        let missed = try LedgerWorkspace.customerJSON("ana", ledger: serviceLedger)
        try store.start()
        let reconcile = ["ledger", "reconcile", "Examples/BackyardBirds", "--ledger", serviceLedger, "--root", store.rootPath,
                         "--bundle-id", StoreAPIProcess.bundleID, "--environment", "Sandbox", "--app-store-url", store.baseURL,
                         "--app-store-key", store.key["private_key_path"] ?? "", "--app-store-key-id", store.key["key_id"] ?? "",
                         "--app-store-issuer-id", store.key["issuer_id"] ?? "", "--json"]
        let first = try CommandRunner.run(reconcile)
        #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(first.standardOutput.utf8)) as? [String: Any])
        #expect(summary["checkpoint_moved"] as? Bool == true)
        #expect((summary["notification_outcomes"] as? [String: Int])?["processed", default: 0] ?? 0 > 0, "\(summary)")

        let reference = try Self.ledger(backend, in: store, named: "reference")
        let outbox = try store.storeJSON(["notifications"])["notifications"] as? [[String: Any]] ?? []
        for customer in tokens.keys.sorted() {
            let lines = outbox.filter { $0["customer_id"] as? String == customer }.compactMap { $0["signed_payload"] as? String }
            let ingested = try CommandRunner.run(
                ["ledger", "ingest", "Examples/BackyardBirds", "--ledger", reference, "--root", store.rootPath, "--bundle-id", StoreAPIProcess.bundleID,
                 "--environment", "Sandbox", "--customer", customer], input: lines.joined(separator: "\n"))
            #expect(ingested.status == 0, "\(ingested.standardOutput)")
        }
        for customer in tokens.keys.sorted() {
            let reconciled = try LedgerWorkspace.customerJSON(customer, ledger: serviceLedger)
            let expected = try LedgerWorkspace.customerJSON(customer, ledger: reference)
            #expect(reconciled == expected, "\(customer): reconciled \(reconciled), never missed \(expected)")
        }
        #expect(missed != (try LedgerWorkspace.customerJSON("ana", ledger: serviceLedger)), "the outage had lost something")

        let second = try CommandRunner.run(reconcile)
        #expect(second.status == 0, "\(second.standardError)")
        let again = try #require(try JSONSerialization.jsonObject(with: Data(second.standardOutput.utf8)) as? [String: Any])
        #expect((again["notification_outcomes"] as? [String: Int])?["processed"] == nil, "\(again)")
        #expect(Set((again["transaction_outcomes"] as? [String: Int] ?? [:]).keys).isSubset(of: ["already_finished"]), "\(again)")
        _ = service?.terminate()
    }

    @Test("serve --reconcile-every catches up by itself with a purchase whose notification it missed")
    func serveReconcilesOnItsOwn() throws {
        let store = try StoreAPIProcess()
        try store.store(["certificate"]).write(toFile: store.rootPath, atomically: true, encoding: .utf8)
        let rootPEM = try String(contentsOfFile: store.rootPath, encoding: .utf8)
        let ledger = store.directory.appending(path: "service.sqlite").path
        var service = try ServeProcess(ledger: ledger, rootPEM: rootPEM)
        let token = UUID().uuidString.lowercased()
        #expect(try service.request("PUT", "/v1/customers/ana", json: ["app_account_token": token]).status < 300)
        try store.store(["settings", "--notification-url", "\(service.baseURL.absoluteString)/v1/notifications"])
        _ = service.terminate()
        try store.store(["purchase", "pellet.box", "--customer", "ana", "--app-account-token", token])
        try store.start()
        service = try ServeProcess(ledger: ledger, extra: [
            "--reconcile-every", "1s", "--app-store-url", store.baseURL, "--app-store-key", store.key["private_key_path"] ?? "",
            "--app-store-key-id", store.key["key_id"] ?? "", "--app-store-issuer-id", store.key["issuer_id"] ?? "",
        ], rootPEM: rootPEM)
        var balances: [String: Any] = [:]
        for _ in 0..<100 where balances["pellet"] == nil {
            Thread.sleep(forTimeInterval: 0.1)
            balances = try service.request("GET", "/v1/customers/ana").json["balances"] as? [String: Any] ?? [:]
        }
        #expect(balances["pellet"] as? Int == 5, "\(service.standardError)")
        for _ in 0..<50 where !service.standardError.contains("storerules serve: reconciled: ") {
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(service.standardError.contains("storerules serve: reconciled: "), "\(service.standardError)")
        _ = service.terminate()
    }
}
