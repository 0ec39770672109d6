import Foundation
import StoreCore
import Testing

/// The JSON-lines protocol the `PolicyService` example serves, in process: storefront plans from
/// the ledger's state, transactions granted once, notifications verified with their nested data
/// and processed once, entitlements, reloads, and a failing grant hook.
@Suite struct JSONLineProtocolTests {
    typealias JSON = [String: Any]

    @Test func storefrontPlansComeFromTheCustomersLedgerState() throws {
        let service = try JSONLineTestService()
        let newcomer = try service.result(["op": "storefront", "customer": "wren", "placement": "home"])
        #expect(newcomer["customer_id"] as? String == "wren")
        #expect(newcomer["show_merchandising"] as? Bool == true)
        let newcomerStore = try #require((newcomer["subscription_stores"] as? [JSON])?.first)
        #expect(newcomerStore["current_product_id"] == nil)
        #expect((newcomerStore["plans"] as? [JSON])?.map { $0["id"] as? String } == ["pass.premium", "pass.family", "pass.individual"])

        let family = try JSONLineTestService.sign(BackyardBirdsPayloads.pass(original: "3000", period: 0, of: 1, productID: "pass.family"))
        _ = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": family])
        let home = try service.result(["op": "storefront", "customer": "ada", "placement": "home"])
        #expect(home["show_merchandising"] as? Bool == false)
        let store = try service.result(["op": "storefront", "customer": "ada"])
        #expect(store["placement"] as? String == "store")
        #expect(store["show_merchandising"] as? Bool == true)
        let pass = try #require((store["subscription_stores"] as? [JSON])?.first)
        #expect(pass["current_product_id"] as? String == "pass.family")
        let plans = try #require(pass["plans"] as? [JSON])
        #expect(plans.map { $0["id"] as? String } == ["pass.premium"])
        #expect(plans.first?["relationship"] as? String == "upgrade")
        #expect((store["status_line"] as? String)?.hasPrefix("Expires ") == true)
    }

    @Test func ingestingATransactionGrantsOnceAndAnswersTheBalances() throws {
        let service = try JSONLineTestService()
        let box = try JSONLineTestService.sign(BackyardBirdsPayloads.consumable(id: "1000", quantity: 2))
        let first = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": box])
        #expect(first["transaction_id"] as? String == "1000")
        #expect(first["customer"] as? String == "ada")
        #expect(first["product_id"] as? String == "pellet.box")
        #expect(first["storage"] as? String == "inserted")
        #expect(first["outcome"] as? String == "granted")
        #expect(first["grants"] as? [JSON] as NSArray? == [["item": "pellet", "amount": 10]] as NSArray)
        #expect(first["balances"] as? [String: Int] == ["pellet": 10])

        let again = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": box])
        #expect(again["storage"] as? String == "unchanged")
        #expect(again["outcome"] as? String == "already_finished")
        #expect((again["grants"] as? [JSON])?.isEmpty == true)
        #expect(again["balances"] as? [String: Int] == ["pellet": 10])

        let sampler = try JSONLineTestService.sign(BackyardBirdsPayloads.consumable(id: "1001", productID: "food.sampler"))
        let mixed = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": sampler])
        #expect(mixed["balances"] as? [String: Int] == ["pellet": 12, "nectar": 2])
    }

    @Test func notificationsAreVerifiedWithTheirNestedDataAndProcessedOnce() throws {
        let service = try JSONLineTestService()
        let purchase = try JSONLineTestService.sign(BackyardBirdsPayloads.pass(original: "4000", period: 0, of: 2))
        _ = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": purchase])

        let renewal = try JSONLineTestService.sign(BackyardBirdsPayloads.pass(original: "4000", period: 1, of: 2))
        let renewalInfo = try JSONLineTestService.sign(BackyardBirdsPayloads.renewalInfo(original: "4000", autoRenew: true))
        let didRenew = try JSONLineTestService.sign(BackyardBirdsPayloads.notification(
            type: .didRenew, uuid: "0c9b7a4e-0000-4000-8000-000000004001", signedTransaction: renewal, signedRenewalInfo: renewalInfo))
        let processed = try service.result(["op": "ingest_notification", "jws": didRenew])
        #expect(processed["status"] as? String == "processed")
        #expect(processed["notification_type"] as? String == "DID_RENEW")
        #expect(processed["notification_uuid"] as? String == "0c9b7a4e-0000-4000-8000-000000004001")
        #expect(processed["renewal_info"] as? String == "inserted")
        let transaction = try #require(processed["transaction"] as? JSON)
        #expect(transaction["transaction_id"] as? String == "4000-1")
        #expect(transaction["customer"] as? String == "ada")
        #expect(transaction["outcome"] as? String == "granted")

        let redelivered = try service.result(["op": "ingest_notification", "jws": didRenew])
        #expect(redelivered["status"] as? String == "already_processed")
        #expect(redelivered["transaction"] == nil)

        let subscription = try #require((try service.result(["op": "entitlements", "customer": "ada"])["subscriptions"] as? JSON)?["6F3A93AB"] as? JSON)
        #expect(subscription["will_auto_renew"] as? Bool == true)

        let box = BackyardBirdsPayloads.consumable(id: "4100", quantity: 3)
        _ = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": try JSONLineTestService.sign(box)])
        let refunded = BackyardBirdsPayloads.consumable(
            id: "4100", quantity: 3, revokedAt: BackyardBirdsPayloads.now.addingTimeInterval(1), signedAt: BackyardBirdsPayloads.now.addingTimeInterval(2))
        let refund = try JSONLineTestService.sign(BackyardBirdsPayloads.notification(type: .refund, signedTransaction: try JSONLineTestService.sign(refunded)))
        let reversed = try #require(try service.result(["op": "ingest_notification", "jws": refund])["transaction"] as? JSON)
        #expect(reversed["outcome"] as? String == "revoked")
        #expect(reversed["storage"] as? String == "updated")
        #expect(reversed["grants"] as? [JSON] as NSArray? == [["item": "pellet", "amount": 15]] as NSArray)
        #expect(reversed["balances"] as? [String: Int] == [:])
    }

    @Test func aNotificationWhoseNestedTransactionIsUntrustedChangesNothing() throws {
        let service = try JSONLineTestService()
        let forged = try JSONLineTestService.sign(BackyardBirdsPayloads.consumable(id: "5000"), by: JSONLineTestService.otherAuthority)
        let notification = BackyardBirdsPayloads.notification(type: .oneTimeCharge, uuid: "5d000000-0000-4000-8000-000000005000", signedTransaction: forged)
        let reply = try service.request(["op": "ingest_notification", "jws": try JSONLineTestService.sign(notification), "customer": "ada"])
        let error = try #require(reply["error"] as? JSON)
        #expect(error["kind"] as? String == "verification")
        #expect((error["message"] as? String)?.hasPrefix("signedTransactionInfo: the certificate chain does not lead to a trusted root") == true)
        #expect(try service.result(["op": "entitlements", "customer": "ada"])["balances"] as? [String: Int] == [:])

        let genuine = BackyardBirdsPayloads.notification(
            type: .oneTimeCharge, uuid: "5d000000-0000-4000-8000-000000005000",
            signedTransaction: try JSONLineTestService.sign(BackyardBirdsPayloads.consumable(id: "5000")))
        let retried = try service.result(["op": "ingest_notification", "jws": try JSONLineTestService.sign(genuine), "customer": "ada"])
        #expect(retried["status"] as? String == "processed")
        #expect((retried["transaction"] as? JSON)?["balances"] as? [String: Int] == ["pellet": 5])
    }

    @Test func entitlementsListProductsSubscriptionsBalancesAndFeatures() throws {
        let service = try JSONLineTestService()
        for jws in [
            try JSONLineTestService.sign(BackyardBirdsPayloads.pass(original: "6000", period: 0, of: 1)),
            try JSONLineTestService.sign(BackyardBirdsPayloads.consumable(id: "6001", productID: "feeder.golden", type: .nonConsumable)),
            try JSONLineTestService.sign(BackyardBirdsPayloads.consumable(id: "6002")),
        ] {
            _ = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": jws])
        }
        let ada = try service.result(["op": "entitlements", "customer": "ada"])
        #expect(ada["customer"] as? String == "ada")
        #expect(ada["entitlements"] as? [String] == ["feeder.golden", "pass.premium"])
        #expect(ada["balances"] as? [String: Int] == ["pellet": 5])
        #expect(ada["features"] as? [String] == ["unlimited_backyards", "decorations", "family_sharing", "rare_birds", "golden_feeder"])
        #expect(ada["features_fallback"] == nil)
        #expect((ada["unfinished_transactions"] as? [String])?.isEmpty == true)
        #expect((ada["policy_version"] as? String)?.count == 16)
        let pass = try #require((ada["subscriptions"] as? JSON)?["6F3A93AB"] as? JSON)
        #expect(pass["product_id"] as? String == "pass.premium")
        #expect(pass["state"] as? String == "subscribed")
        #expect(pass["group_level"] as? Int == 1)
        #expect(pass["intro_eligible"] as? Bool == false)

        let stranger = try service.result(["op": "entitlements", "customer": "stranger"])
        #expect((stranger["entitlements"] as? [String])?.isEmpty == true)
        #expect((stranger["subscriptions"] as? JSON)?.isEmpty == true)
        #expect((stranger["features"] as? [String])?.isEmpty == true)
    }

    @Test func reloadSwapsTheEditedPolicyInWithoutARestart() throws {
        let service = try JSONLineTestService()
        let before = try service.result(["op": "entitlements", "customer": "ada"])["policy_version"] as? String
        let edited = try service.policy().replacingOccurrences(
            of: #"["pellet.box"]    = { { item = "pellet", amount = 5 } }"#, with: #"["pellet.box"]    = { { item = "pellet", amount = 7 } }"#)
        #expect(edited != (try service.policy()))
        try service.writePolicy(edited)

        let reload = try service.result(["op": "reload"])
        #expect(reload["previous_version"] as? String == before)
        let version = try #require(reload["version"] as? String)
        #expect(version != before)
        let granted = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": try JSONLineTestService.sign(BackyardBirdsPayloads.consumable(id: "7000"))])
        #expect(granted["balances"] as? [String: Int] == ["pellet": 7])
        #expect(try service.result(["op": "storefront", "customer": "ada"])["policy_version"] as? String == version)
    }

    @Test func aReloadThatFailsKeepsTheOldPolicyServing() throws {
        let service = try JSONLineTestService()
        let serving = try #require(try service.result(["op": "entitlements", "customer": "ada"])["policy_version"] as? String)
        try service.writePolicy("local policy = {\nfunction policy.features(ctx) return {} end\n")

        let reply = try service.request(["op": "reload"])
        let error = try #require(reply["error"] as? JSON)
        #expect(error["kind"] as? String == "reload")
        #expect((error["message"] as? String)?.contains("policy.lua") == true)
        #expect((error["message"] as? String)?.hasSuffix("version \(serving) keeps serving") == true)

        let granted = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": try JSONLineTestService.sign(BackyardBirdsPayloads.consumable(id: "8000"))])
        #expect(granted["outcome"] as? String == "granted")
        #expect(granted["balances"] as? [String: Int] == ["pellet": 5])
        #expect(try service.result(["op": "storefront", "customer": "ada"])["policy_version"] as? String == serving)
    }

    @Test func aGrantHookThatFailsLeavesTheTransactionUnfinished() throws {
        let service = try JSONLineTestService()
        try service.writePolicy("""
            local policy = {}
            function policy.grant(ctx, tx, product) error("the food rules are being rewritten") end
            return policy
            """)
        _ = try service.result(["op": "reload"])
        let box = try JSONLineTestService.sign(BackyardBirdsPayloads.consumable(id: "8100"))
        let unfinished = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": box])
        #expect(unfinished["outcome"] as? String == "unfinished")
        #expect((unfinished["reason"] as? String)?.contains("the food rules are being rewritten") == true)
        #expect(unfinished["balances"] as? [String: Int] == [:])
        #expect(try service.result(["op": "entitlements", "customer": "ada"])["unfinished_transactions"] as? [String] == ["8100"])
    }
}
