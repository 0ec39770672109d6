import Foundation
import Testing

/// `storerules ledger reconcile` from the command line: its options reach the local store's App
/// Store Server API running as a process, and it prints what it read and changed as JSON; and
/// `serve --reconcile-every` catches up by itself. That one reconcile after an outage makes a
/// ledger equal to one that missed nothing, on both ledgers, is `ReconcileAfterOutageTests`'.
@Suite struct LedgerReconcileTests {
    /// The path of a SQLite ledger named `name` in the store's folder; the file does not exist yet.
    static func ledger(in store: StoreAPIProcess, named name: String) -> String {
        store.directory.appending(path: "\(name).sqlite").path
    }

    @Test("ledger reconcile prints its summary as JSON: a renewal the ledger missed is processed, the checkpoint moves; a second run processes nothing")
    func reconcileCommand() throws {
        let store = try StoreAPIProcess()
        try store.start()
        let ledger = Self.ledger(in: store, named: "service")
        let bought = try store.storeJSON(["purchase", "pass.premium", "--customer", "ana"])
        let ingested = try CommandRunner.run(["ledger", "ingest", "Examples/BackyardBirds", "--ledger", ledger, "--root", store.rootPath,
                                              "--bundle-id", StoreAPIProcess.bundleID, "--environment", "Sandbox", "--customer", "ana"],
                                             input: try #require(bought["signed_transaction_info"] as? String, "\(bought)"))
        #expect(ingested.status == 0, "\(ingested.standardOutput)\(ingested.standardError)")
        try store.store(["advance", "P1M"])
        // A window ends at the server's Date header, to the second: the store's clock moves past
        // the renewal's second, so the first window holds it and the second has nothing new.
        try store.store(["advance", "PT2S"])
        let missed = try LedgerWorkspace.customerJSON("ana", ledger: ledger)
        let reconcile = ["ledger", "reconcile", "Examples/BackyardBirds", "--ledger", ledger, "--root", store.rootPath,
                         "--bundle-id", StoreAPIProcess.bundleID, "--environment", "Sandbox", "--app-store-url", store.baseURL,
                         "--app-store-key", store.key["private_key_path"] ?? "", "--app-store-key-id", store.key["key_id"] ?? "",
                         "--app-store-issuer-id", store.key["issuer_id"] ?? "", "--json"]
        let first = try CommandRunner.run(reconcile)
        #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(first.standardOutput.utf8)) as? [String: Any])
        #expect(summary["checkpoint_moved"] as? Bool == true)
        #expect((summary["notification_outcomes"] as? [String: Int])?["processed", default: 0] ?? 0 > 0, "\(summary)")
        #expect(missed != (try LedgerWorkspace.customerJSON("ana", ledger: ledger)), "the renewal was missed")

        let second = try CommandRunner.run(reconcile)
        #expect(second.status == 0, "\(second.standardError)")
        let again = try #require(try JSONSerialization.jsonObject(with: Data(second.standardOutput.utf8)) as? [String: Any])
        #expect((again["notification_outcomes"] as? [String: Int])?["processed"] == nil, "\(again)")
        #expect(Set((again["transaction_outcomes"] as? [String: Int] ?? [:]).keys).isSubset(of: ["already_finished"]), "\(again)")
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
