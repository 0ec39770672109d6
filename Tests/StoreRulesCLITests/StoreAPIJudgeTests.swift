import AppleLibraryCrossCheck
import Foundation
import TestPrerequisites
import Testing

/// Apple's own Python client (`app-store-server-library`) drives the local store's App Store
/// Server API over HTTP — every endpoint, each page, each filter, each documented error — and
/// verifies every signed item it is answered with Apple's `SignedDataVerifier`.
@Suite(.enabled(if: TestPrerequisite.runs(AppleLibrary.isInstalled), "needs .venv: run scripts/crosscheck/setup.sh"))
struct StoreAPIJudgeTests {
    @Test func applesClientGetsWhatTheStoreHolds() throws {
        let store = try StoreAPIProcess()
        let premium = try store.buy("pass.premium")
        let storeNow = try #require(try store.storeJSON(["advance", "1M"])["now"] as? Int64)
        var singles: [String] = []
        for _ in 0..<22 { singles.append(try store.buy("pellet.single")) }
        let box = try store.buy("pellet.box")
        let nectar = try store.buy("nectar.cup")
        try store.store(["refund", box])
        let ledger = try store.storeJSON(["transactions", "--customer", "ana"])["transactions"] as? [[String: Any]] ?? []
        let renewal = try #require(ledger.first { $0["product_id"] as? String == "pass.premium" && $0["transaction_id"] as? String != premium }?["transaction_id"] as? String)
        let orderID = try #require(ledger.first { $0["transaction_id"] as? String == singles[0] }?["order_id"] as? String)
        // Nothing listens on the discard port: every notification sent from now on fails.
        try store.store(["settings", "--notification-url", "http://127.0.0.1:9/v1/notifications"])
        try store.start()

        let scenario: [String: Any] = [
            "base_url": store.baseURL, "issuer_id": store.key["issuer_id"] ?? "", "key_id": store.key["key_id"] ?? "",
            "private_key_path": store.key["private_key_path"] ?? "", "bundle_id": StoreAPIProcess.bundleID, "root_pem_path": store.rootPath,
            "subscription": premium, "subscription_product": "pass.premium", "group": "6F3A93AB", "renewal": renewal,
            "consumables": singles, "order_id": orderID, "now_ms": storeNow,
        ]
        let scenarioPath = store.directory.appending(path: "scenario.json").path
        try JSONSerialization.data(withJSONObject: scenario).write(to: URL(fileURLWithPath: scenarioPath))
        let judge = Process()
        judge.executableURL = AppleLibrary.python
        judge.arguments = [CommandRunner.packageRoot.appending(path: "scripts/crosscheck/api_judge.py").path, scenarioPath]
        let output = Pipe()
        let complaints = Pipe()
        judge.standardOutput = output
        judge.standardError = complaints
        try judge.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = String(decoding: complaints.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        judge.waitUntilExit()
        try #require(judge.terminationStatus == 0, "api_judge.py failed: \(complaint)")
        let report = try #require(try JSONSerialization.jsonObject(with: printed) as? [String: Any])

        let everything = ledger.compactMap { $0["transaction_id"] as? String }
        #expect(report["info"] as? String == "pass.premium")
        let pages = try #require(report["history_pages"] as? [[String]])
        #expect(pages.map(\.count) == [20, everything.count - 20])
        #expect(Set(pages.flatMap { $0 }) == Set(everything))
        #expect(pages.last?.last == box, "the refund changed the box last")
        #expect(report["history_v1_pages"] as? [[String]] == pages)
        #expect((report["history_since_last"] as? [String])?.isEmpty == true)
        #expect(report["history_filtered"] as? [[String]] == [[box, nectar]])
        #expect(report["history_revoked"] as? [[String]] == [[box]])
        #expect(report["history_not_revoked_subscriptions"] as? [[String]] == [[premium, renewal]])
        let statuses = try #require(report["statuses"] as? [[String: Any]])
        #expect(statuses.count == 1)
        #expect(statuses.first?["group"] as? String == "6F3A93AB")
        let item = try #require((statuses.first?["items"] as? [[String: Any]])?.first)
        #expect(item["status"] as? Int == 1)
        #expect(item["original"] as? String == premium)
        #expect(item["renews_to"] as? String == "pass.premium")
        #expect(report["statuses_expired"] as? Int == 0)
        #expect(report["refunds"] as? [String] == [box])
        let order = try #require(report["order"] as? [String: Any])
        #expect(order["status"] as? Int == 0)
        #expect(order["transactions"] as? [String] == [singles[0]])
        #expect(report["order_unknown"] as? Int == 1)
        let extended = try #require(report["extended"] as? [String: Any])
        #expect(extended["success"] as? Bool == true)
        let day: Int64 = 86_400_000
        let expiresBefore = try #require(extended["expires_before"] as? Int64, "\(extended)")
        #expect(extended["expires"] as? Int64 == expiresBefore + 5 * day, "the five days asked: \(extended)")
        #expect(extended["effective"] as? Int64 == expiresBefore + 5 * day, "\(extended)")
        let mass = try #require(report["mass"] as? [String: Any])
        #expect(mass["complete"] as? Bool == true && mass["succeeded"] as? Int == 1 && mass["failed"] as? Int == 0)
        #expect(mass["expires"] as? Int64 == expiresBefore + 6 * day, "and the mass extension's one more: \(mass)")
        #expect(report["app_account_token"] as? Bool == true)
        #expect(report["test_notification"] as? String == "TEST")
        let notificationPages = try #require(report["notification_pages"] as? [[String]])
        let outbox = try store.storeJSON(["notifications"])["notifications"] as? [[String: Any]] ?? []
        #expect(notificationPages.flatMap { $0 }.count == outbox.count)
        #expect(notificationPages.dropLast().allSatisfy { $0.count == 20 })
        #expect(notificationPages.flatMap { $0 }.contains("RENEWAL_EXTENDED"))
        #expect(notificationPages.flatMap { $0 }.contains("REFUND"))
        #expect(report["notifications_of_type"] as? Int == 1)
        #expect(report["notifications_only_failures"] as? Int == 2,
                "the RENEWAL_EXTENDED of the extension and of the mass extension, each sent to no one")
        #expect(report["test_notification_attempts"] as? [String] == ["SOCKET_ISSUE"])
        #expect(report["app_transaction"] as? String == StoreAPIProcess.bundleID)

        let consumption = try store.storeJSON(["consumption"])["consumption"] as? [[String: Any]] ?? []
        #expect(consumption.map { $0["transaction_id"] as? String } == [singles[1], singles[2]])
        #expect(consumption.map { $0["version"] as? Int } == [2, 1])
        let sent = try #require(report["consumption_sent"] as? [[String: Any]])
        #expect(sent.map(\.count) == [5, 2], "every field the judge set: \(sent)")
        #expect(consumption.map { ($0["body"] as? [String: Any]).map { NSDictionary(dictionary: $0) } } == sent.map { NSDictionary(dictionary: $0) },
                "the fields as Apple's client sent them")

        let refusals = try #require(report["errors"] as? [String: Any])
        let expected: [String: (Int, Int?)] = [
            "unknown_transaction": (404, 4040010), "malformed_transaction": (400, 4000006), "bad_revision": (400, 4000005),
            "unknown_subscription": (404, 4040005), "too_many_days": (400, 4000009), "both_filters": (400, 4000019),
            "start_after_end": (400, 4000013), "bad_pagination_token": (400, 4000014), "unknown_test_notification": (404, 4040008),
            "unknown_mass_extension": (404, 4040009), "bad_app_account_token": (400, 4000183), "not_original": (400, 4000187),
            "wrong_consumption": (400, 4000000), "foreign_key": (401, nil),
        ]
        for (name, (status, code)) in expected {
            let refusal = refusals[name] as? [String: Any] ?? [:]
            #expect(refusal["status"] as? Int == status, "\(name): \(refusal)")
            #expect(refusal["code"] as? Int == code, "\(name): \(refusal)")
            if code != nil { #expect(refusal["name"] is String, "\(name) decodes to a named APIError") }
        }
    }
}
