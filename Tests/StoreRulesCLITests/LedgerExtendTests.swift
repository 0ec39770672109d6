import Foundation
import Testing

/// Compensation for an outage from the command line: `ledger extend` lists who gets what
/// (`--dry-run`), prints its plan and summary as JSON, and extends the subscribers through the
/// local store's App Store Server API running as a process, once however often it runs. What
/// the compensation decides, on both ledgers, is `IncidentCompensationTests`'.
@Suite struct LedgerExtendTests {
    @Test("an incident's dry run lists a mass extension for a shared product, its run sends it and one request for a lone subscriber, once")
    func extend() throws {
        let store = try StoreAPIProcess()
        try store.start()
        let ledger = LedgerReconcileTests.ledger(in: store, named: "service")
        var lines: [String] = []
        for (customer, product) in [("ana", "pass.premium"), ("ben", "pass.premium"), ("cara", "pass.family")] {
            let bought = try store.storeJSON(["purchase", product, "--customer", customer])
            lines.append(try #require(bought["signed_transaction_info"] as? String, "\(bought)"))
            let ingested = try CommandRunner.run(["ledger", "ingest", "Examples/BackyardBirds", "--ledger", ledger, "--root", store.rootPath,
                                                  "--bundle-id", StoreAPIProcess.bundleID, "--environment", "Sandbox", "--customer", customer],
                                                 input: lines.last ?? "")
            #expect(ingested.status == 0, "\(ingested.standardOutput)")
        }
        let now = Date()
        let incident = store.directory.appending(path: "incident.json")
        try JSONSerialization.data(withJSONObject: [
            "start": now.addingTimeInterval(-29 * 3600).formatted(.iso8601), "end": now.addingTimeInterval(300).formatted(.iso8601),
            "reason": "feeder cams down", "products": ["pass.premium", "pass.family"],
        ]).write(to: incident)
        let command = ["ledger", "extend", "Examples/BackyardBirds", "--ledger", ledger, "--incident", incident.path, "--root", store.rootPath,
                       "--bundle-id", StoreAPIProcess.bundleID, "--environment", "Sandbox"]
        let dryRun = try CommandRunner.run(command + ["--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.standardError)")
        #expect(dryRun.standardOutput.contains("every subscriber of pass.premium: +2 days, SERVICE_ISSUE_OR_OUTAGE (one mass extension)"),
                "\(dryRun.standardOutput)")
        #expect(dryRun.standardOutput.contains("cara"), "\(dryRun.standardOutput)")
        #expect(!dryRun.standardOutput.contains("sent already"), "\(dryRun.standardOutput)")
        #expect(try store.storeJSON(["notifications"])["notifications"].map { "\($0)" }?.contains("RENEWAL_EXTENDED") == false,
                "a dry run sends nothing")

        let applied = try CommandRunner.run(command + ConsumptionLoopTests.clientOptions(store) + ["--json"])
        #expect(applied.status == 0, "\(applied.standardOutput)\(applied.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(applied.standardOutput.utf8)) as? [String: Any])
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["sent"] as? Int == 2, "one mass extension and one single: \(report)")
        let subscribers = report["subscribers"] as? [[String: Any]] ?? []
        #expect(subscribers.count == 3)
        #expect(subscribers.filter { $0["mass"] as? Bool == true }.count == 2)
        let notifications = try store.storeJSON(["notifications"])["notifications"] as? [[String: Any]] ?? []
        let types = notifications.map { "\($0["notification_type"] ?? "")/\($0["subtype"] ?? "")" }
        #expect(types.filter { $0.hasPrefix("RENEWAL_EXTENDED") }.count == 3, "\(types)")
        #expect(types.contains { $0.hasPrefix("RENEWAL_EXTENSION") && $0.contains("SUMMARY") }, "\(types)")

        let again = try CommandRunner.run(command + ConsumptionLoopTests.clientOptions(store) + ["--json"])
        let second = try #require(try JSONSerialization.jsonObject(with: Data(again.standardOutput.utf8)) as? [String: Any])
        #expect((second["summary"] as? [String: Any])?["sent"] as? Int == 0, "\(second)")
        #expect((second["summary"] as? [String: Any])?["already_sent"] as? Int == 2, "\(second)")
        for subscriber in second["subscribers"] as? [[String: Any]] ?? [] {
            #expect(subscriber["already_sent"] as? Bool == true, "\(subscriber)")
            #expect(subscriber["sent_date"] is String, "\(subscriber)")
            #expect(Set(subscriber.keys) == ["customer", "original_transaction_id", "product_id", "days", "reason", "why", "failed", "mass",
                                             "already_sent", "sent_date"], "every documented field, null when empty: \(subscriber)")
            #expect(subscriber["why"] is NSNull, "\(subscriber)")
        }
        let after = try store.storeJSON(["notifications"])["notifications"] as? [[String: Any]] ?? []
        #expect(after.count == notifications.count, "a second run extends nobody again")
        let listed = try CommandRunner.run(command + ["--dry-run"])
        #expect(listed.standardOutput.contains("every subscriber of pass.premium: +2 days, SERVICE_ISSUE_OR_OUTAGE (one mass extension; sent already "),
                "\(listed.standardOutput)")
        #expect(listed.standardOutput.components(separatedBy: "(sent already ").count == 4, "each subscriber is listed as sent: \(listed.standardOutput)")
    }

    @Test("a malformed incident file is refused as a usage error naming the field, and no subscriber is extended")
    func malformedIncident() throws {
        let loop = try CompensationLoop()
        try loop.subscribe("ana", to: "pass.premium")
        try loop.subscribe("cara", to: "pass.family")
        let now = Date()
        let start = now.addingTimeInterval(-3600).formatted(.iso8601), end = now.addingTimeInterval(600).formatted(.iso8601)
        for (text, error) in [(#"{"start": "\#(end)", "end": "\#(start)", "reason": "x"}"#, "end: the end is before the start"),
                              (#"{"start": "yesterday", "end": "\#(end)", "reason": "x"}"#,
                               "start: 'yesterday' is not an ISO 8601 time"),
                              (#"{"start": "\#(start)", "end": "\#(end)", "reason": "x", "product": ["pass.premium"]}"#,
                               "unknown field 'product' at the top level; did you mean 'products'?"),
                              (#"{"start": "\#(start)", "end": "\#(end)"}"#, "missing field 'reason'"),
                              (#"{"start": "\#(start)", "end": "\#(end)", "reason": "x", "storefronts": ["USA", 3]}"#,
                               "storefronts[1]: expected a string, found 3"),
                              (#"{"start": "\#(start)", "end": "\#(end)", "reason": "x", "storefronts": ["USA", "usa"]}"#,
                               "storefronts: storefronts[1]: 'usa' is not an ISO 3166-1 alpha-3 code"),
                              (#"{"start": "\#(start)", "end": "\#(end)", "reason": "x", "products": ["pass.premum"]}"#,
                               "products[0]: 'pass.premum' is not an auto-renewable subscription of the catalog (did you mean 'pass.premium'?)")] {
            let incident = try loop.incident(text, named: "incident.json")
            let result = try loop.extend(incident)
            #expect(result.status == 64, "\(text): \(result.standardOutput)\(result.standardError)")
            #expect(result.standardError.contains("--incident \(incident): \(error)"), "\(result.standardError)")
            #expect(result.standardOutput.isEmpty, "\(result.standardOutput)")
        }
        #expect(try loop.extensionsSent().isEmpty, "a refused incident extends nobody")
    }
}
