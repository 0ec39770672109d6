import Foundation
import Testing
import TestPrerequisites

/// The refund loop on one machine: the local store's customer asks for a refund; the store sends
/// `CONSUMPTION_REQUEST` to `storerules serve`, which keeps the request, asks the policy's
/// `consumption` hook on the customer's state and sends the answer with the App Store Server API
/// client to the store's API, which records it — on SQLite and on PostgreSQL.
@Suite struct ConsumptionLoopTests {
    @Test("on SQLite, a refund request is answered with what the policy decided on the customer's state")
    func refundLoopOnSQLite() throws {
        try refundLoop(backend: .sqlite)
    }

    @Test("on PostgreSQL, a refund request is answered with what the policy decided on the customer's state",
          .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil), "set STORERULES_TEST_POSTGRES_URL to a PostgreSQL server"))
    func refundLoopOnPostgreSQL() throws {
        try refundLoop(backend: .postgres)
    }

    func refundLoop(backend: LedgerReconcileTests.Backend) throws {
        let (store, ledger, service) = try Self.serviceBesideStoreAPI(backend)
        defer { _ = service.terminate() }
        let token = UUID().uuidString.lowercased()
        #expect(try service.request("PUT", "/v1/customers/ana", json: ["app_account_token": token]).status < 300)
        try store.store(["settings", "--notification-url", "\(service.baseURL.absoluteString)/v1/notifications"])
        let bought = try store.storeJSON(["purchase", "pellet.box", "--customer", "ana", "--app-account-token", token])
        let transactionID = try #require((bought["transaction"] as? [String: Any])?["transactionId"] as? String)
        for _ in 0..<4 {
            #expect(try service.request("POST", "/v1/customers/ana/events", json: ["name": "fed_pellet"]).status == 200)
        }

        try store.store(["refund-request", transactionID, "--reason", "UNSATISFIED_WITH_PURCHASE"])
        let received = try Self.answers(at: store, to: transactionID)
        let answer = try #require(received.first?["body"] as? [String: Any], "\(service.standardError)")
        #expect(received.first?["version"] as? Int == 2)
        #expect(answer["customerConsented"] as? Bool == true)
        #expect(answer["deliveryStatus"] as? String == "DELIVERED")
        #expect(answer["consumptionPercentage"] as? Int == 80_000, "four of the box's five pellets were fed")
        #expect(answer["refundPreference"] as? String == "DECLINE")
        #expect(answer["sampleContentProvided"] as? Bool == false)

        var kept: [[String: Any]] = []
        for _ in 0..<50 where kept.first?["state"] as? String != "answered" {
            let listed = try CommandRunner.run(["ledger", "consumption", "--ledger", ledger, "--json"])
            kept = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]] ?? []
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(kept.count == 1)
        #expect(kept.first?["state"] as? String == "answered", "\(kept)")
        #expect(kept.first?["reason"] as? String == "UNSATISFIED_WITH_PURCHASE")
        #expect((kept.first?["answer"] as? [String: Any])?["refundPreference"] as? String == "DECLINE")
        #expect(service.standardError.contains("(transaction \(transactionID)): answered"), "\(service.standardError)")
        let metrics = try service.request("GET", "/metrics", key: ServeProcess.adminKey).text
        #expect(metrics.contains(#"hook="consumption""#), "\(metrics)")

        try store.store(["refund-decline", transactionID])
        // The service answers refund requests one after another, oldest first: once the answer to
        // a later request is at the store, a second answer the decline brought would be there too.
        let later = try store.storeJSON(["purchase", "pellet.box", "--customer", "ana", "--app-account-token", token])
        let laterID = try #require((later["transaction"] as? [String: Any])?["transactionId"] as? String)
        try store.store(["refund-request", laterID, "--reason", "UNSATISFIED_WITH_PURCHASE"])
        #expect(try Self.answers(at: store, to: laterID).count == 1, "\(service.standardError)")
        let after = try store.storeJSON(["consumption", transactionID])["consumption"] as? [[String: Any]] ?? []
        #expect(after.count == 1, "a declined refund brings no second answer: \(after)")
    }

    /// The answers the store received about `transactionID`, once there is one, or none after a minute.
    static func answers(at store: StoreAPIProcess, to transactionID: String) throws -> [[String: Any]] {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let received = try store.storeJSON(["consumption", transactionID])["consumption"] as? [[String: Any]] ?? []
            if !received.isEmpty || ContinuousClock.now > deadline { return received }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    @Test("ledger ingest with the client's options answers the refund request a notification brings; without a hook nothing is sent")
    func ledgerIngestAnswers() throws {
        let store = try StoreAPIProcess()
        try store.start()
        let transactionID = try store.buy("pass.premium")
        try store.store(["refund-request", transactionID, "--reason", "UNINTENDED_PURCHASE"])
        let outbox = try store.storeJSON(["notifications"])["notifications"] as? [[String: Any]] ?? []
        let lines = outbox.compactMap { $0["signed_payload"] as? String }
        let ledger = store.directory.appending(path: "ingested.sqlite").path
        let ingest = ["ledger", "ingest", "Examples/BackyardBirds", "--ledger", ledger, "--root", store.rootPath, "--bundle-id",
                      StoreAPIProcess.bundleID, "--environment", "Sandbox", "--customer", "ana"] + Self.clientOptions(store)
        let ingested = try CommandRunner.run(ingest, input: lines.joined(separator: "\n"))
        #expect(ingested.status == 0, "\(ingested.standardOutput)\(ingested.standardError)")
        #expect(ingested.standardError.contains("(transaction \(transactionID)): answered"), "\(ingested.standardError)")
        let received = try store.storeJSON(["consumption", transactionID])["consumption"] as? [[String: Any]] ?? []
        let body = try #require(received.first?["body"] as? [String: Any])
        #expect(body["refundPreference"] as? String == "GRANT_FULL")
        #expect(body["sampleContentProvided"] as? Bool == true)

        let again = try CommandRunner.run(ingest, input: lines.joined(separator: "\n"))
        #expect(again.status == 0)
        #expect(!again.standardError.contains("answered"), "a request answered once is not answered again: \(again.standardError)")
        #expect((try store.storeJSON(["consumption", transactionID])["consumption"] as? [[String: Any]] ?? []).count == 1)

        let folder = try Self.backyardBirdsWithoutConsumption(in: store.directory)
        let other = store.directory.appending(path: "without-hook.sqlite").path
        let unanswered = try CommandRunner.run(
            ["ledger", "ingest", folder.path, "--ledger", other, "--root", store.rootPath, "--bundle-id", StoreAPIProcess.bundleID,
             "--environment", "Sandbox", "--customer", "ana"] + Self.clientOptions(store), input: lines.joined(separator: "\n"))
        #expect(unanswered.status == 0, "\(unanswered.standardError)")
        #expect(unanswered.standardError.contains("unanswered: the policy defines no consumption hook"), "\(unanswered.standardError)")
        #expect((try store.storeJSON(["consumption", transactionID])["consumption"] as? [[String: Any]] ?? []).count == 1,
                "without a hook nothing reaches the store")
        let listed = try CommandRunner.run(["ledger", "consumption", "--ledger", other])
        #expect(listed.standardOutput.contains("unanswered"), "\(listed.standardOutput)")
    }

    /// Backyard Birds with its `consumption` hook taken out.
    static func backyardBirdsWithoutConsumption(in directory: URL) throws -> URL {
        let folder = directory.appending(path: "without-consumption")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let example = CommandRunner.packageRoot.appending(path: "Examples/BackyardBirds")
        try FileManager.default.copyItem(at: example.appending(path: "Products.storekit"), to: folder.appending(path: "Products.storekit"))
        let policy = try String(contentsOf: example.appending(path: "policy.lua"), encoding: .utf8)
            .replacingOccurrences(of: "\nreturn policy", with: "\npolicy.consumption = nil\nreturn policy")
        try policy.write(to: folder.appending(path: "policy.lua"), atomically: true, encoding: .utf8)
        return folder
    }

    /// A local store serving the App Store Server API, and `storerules serve` over a new ledger
    /// on `backend` that trusts the store's root and answers refund requests through its API.
    static func serviceBesideStoreAPI(
        _ backend: LedgerReconcileTests.Backend
    ) throws -> (store: StoreAPIProcess, ledger: String, service: ServeProcess) {
        let store = try StoreAPIProcess()
        try store.start()
        let rootPEM = try String(contentsOfFile: store.rootPath, encoding: .utf8)
        let ledger = try LedgerReconcileTests.ledger(backend, in: store, named: "service")
        return (store, ledger, try ServeProcess(ledger: ledger, extra: clientOptions(store), rootPEM: rootPEM))
    }

    static func clientOptions(_ store: StoreAPIProcess) -> [String] {
        ["--app-store-url", store.baseURL, "--app-store-key", store.key["private_key_path"] ?? "",
         "--app-store-key-id", store.key["key_id"] ?? "", "--app-store-issuer-id", store.key["issuer_id"] ?? ""]
    }
}
