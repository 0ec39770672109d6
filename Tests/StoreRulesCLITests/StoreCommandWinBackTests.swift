import Foundation
import Testing

/// `storerules store` winning back a lapsed subscriber: the renewal info's eligible offers as
/// `status` prints them, `--win-back-offer` and its refusal, and App Store Connect's criteria as
/// settings. What the local store decides is tested in process (LocalStoreExampleWinBackTests).
@Suite struct StoreCommandWinBackTests {
    typealias Shop = StoreCommandTests.Shop

    @Test func statusPrintsTheWinBackOffersAndPurchaseRedeemsOne() throws {
        let shop = try Shop()
        _ = try shop.json("purchase", "pass.premium", "--customer", "ana")
        _ = try shop.json("auto-renew", "off", "--customer", "ana", "--group", "6F3A93AB")
        _ = try shop.json("advance", "P1M")
        let status = try #require(try shop.json("status")["subscriptions"] as? [[String: Any]])
        #expect(status.first?["eligible_win_back_offer_ids"] as? [String] == ["premium.welcome.back"])
        #expect(try shop.run("status").standardOutput.contains("win-back offers: premium.welcome.back"))

        let back = try shop.json("purchase", "pass.premium", "--customer", "ana", "--win-back-offer", "premium.welcome.back")
        let transaction = try #require(back["transaction"] as? [String: Any])
        #expect(transaction["offerIdentifier"] as? String == "premium.welcome.back")
        let again = try shop.run("purchase", "pass.premium", "--customer", "ana", "--win-back-offer", "premium.welcome.back")
        #expect(again.status != 0)
        #expect(again.standardError.contains("ana may not redeem the win-back offer 'premium.welcome.back' of 'pass.premium': "
                                             + "their subscription is active"), "\(again.standardError)")
    }

    @Test func appStoreConnectsCriteriaAreSettingsAndBadOnesAreRefused() throws {
        let shop = try Shop()
        let settings = try shop.json("settings", "--win-back-paid-months", "3", "--win-back-months-since-lapse", "1-12",
                                     "--win-back-wait-months", "6")
        let criteria = try #require(settings["win_back_criteria"] as? [String: Any])
        #expect(criteria["paid_months"] as? Int == 3)
        #expect(criteria["months_since_lapse"] as? [Int] == [1, 12])
        #expect(criteria["months_between_offers"] as? Int == 6)
        #expect(try shop.run("settings").standardOutput.contains("Win-back offers: paid for 3+ months, lapsed 1–12 months ago"))
        for (option, value) in [("--win-back-paid-months", "25"), ("--win-back-months-since-lapse", "6-2"),
                                ("--win-back-wait-months", "1"), ("--win-back-months-since-lapse", "x")] {
            let refused = try shop.run("settings", option, value)
            #expect(refused.status == 64, "\(option) \(value)")
            #expect(refused.standardError.contains(option), "\(refused.standardError)")
        }
        let cleared = try shop.json("settings", "--win-back-paid-months", "none")
        #expect((cleared["win_back_criteria"] as? [String: Any])?["paid_months"] is NSNull)
    }
}
