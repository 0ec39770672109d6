import Foundation
import Testing

/// `storerules ledger ingest` given the App Store Server API client's options answers the
/// refund requests the notifications it ingests bring, through the local store's API (the
/// service's refund loop is tested in process, in StoreHTTPTests).
@Suite struct ConsumptionLoopTests {
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

    /// The App Store Server API client's options for `store`'s API and key.
    static func clientOptions(_ store: StoreAPIProcess) -> [String] {
        ["--app-store-url", store.baseURL, "--app-store-key", store.key["private_key_path"] ?? "",
         "--app-store-key-id", store.key["key_id"] ?? "", "--app-store-issuer-id", store.key["issuer_id"] ?? ""]
    }
}
