import AppleLibraryCrossCheck
import Foundation
import TestPrerequisites
import Testing

/// Apple's own Python library judges the local store's win-back offers: its client reads a
/// lapsed subscription's statuses and a redeemed transaction from the store's API, and its
/// `SignedDataVerifier` finds the eligible offer in the renewal info and offer type 4 in the
/// transaction.
@Suite(.enabled(if: TestPrerequisite.runs(AppleLibrary.isInstalled), "needs .venv: run scripts/crosscheck/setup.sh"))
struct WinBackJudgeTests {
    @Test func applesLibraryReadsTheEligibleOfferAndTheRedemption() throws {
        let store = try StoreAPIProcess()
        let lapsed = try store.buy("pass.premium", customer: "ana")
        try store.buy("pass.premium", customer: "bo")
        for customer in ["ana", "bo"] {
            try store.store(["auto-renew", "off", "--customer", customer, "--group", "6F3A93AB"])
        }
        try store.store(["advance", "1M"])
        let back = try store.storeJSON(["purchase", "pass.premium", "--customer", "bo", "--win-back-offer", "premium.welcome.back"])
        let redeemed = try #require((back["transaction"] as? [String: Any])?["transactionId"] as? String)
        try store.start()

        let scenario: [String: Any] = [
            "base_url": store.baseURL, "issuer_id": store.key["issuer_id"] ?? "", "key_id": store.key["key_id"] ?? "",
            "private_key_path": store.key["private_key_path"] ?? "", "bundle_id": StoreAPIProcess.bundleID,
            "root_pem_path": store.rootPath, "lapsed": lapsed, "redeemed": redeemed,
        ]
        let scenarioPath = store.directory.appending(path: "winback.json").path
        try JSONSerialization.data(withJSONObject: scenario).write(to: URL(fileURLWithPath: scenarioPath))
        let printed = try AppleLibrary.runScript("scripts/crosscheck/winback_judge.py", arguments: [scenarioPath])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Any])
        #expect(report["lapsed_status"] as? Int == 2, "expired")
        #expect(report["eligible_win_back_offer_ids"] as? [String] == ["premium.welcome.back"])
        #expect(report["redeemed_offer_type"] as? String == "WIN_BACK_OFFER")
        #expect(report["redeemed_offer_identifier"] as? String == "premium.welcome.back")
        #expect(report["redeemed_offer_discount_type"] as? String == "PAY_AS_YOU_GO")
    }
}
