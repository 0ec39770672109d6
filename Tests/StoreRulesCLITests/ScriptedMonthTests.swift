import AppleLibraryCrossCheck
import Foundation
import StoreCore
import Testing
import TestPrerequisites

/// The scripted month of a Backyard Birds customer (``ScriptedMonth``): what the customer owns
/// after each step, and every signed payload the ledger ends with, verified by StoreRules and by
/// Apple's library.
@Suite struct ScriptedMonthTests {
    typealias Step = ScriptedMonth.Step

    let month: ScriptedMonth

    init() throws {
        month = try ScriptedMonth.played.get()
    }

    static let passFeatures = ["unlimited_backyards", "decorations"]
    static let premiumFeatures = ["unlimited_backyards", "decorations", "family_sharing", "rare_birds"]
    static let dayInMilliseconds = 86_400_000

    // MARK: - What the customer owns

    @Test func buyingPelletsFillsTheInventoryAndEntitlesToNothing() throws {
        let bought = try month.output(.buyPellets)
        #expect(StoreCommandTests.summaries(bought) == ["ONE_TIME_CHARGE"])
        #expect(StoreCommandTests.transaction(bought)["productId"] as? String == "pellet.box")
        try expectOwnership(after: .buyPellets, entitlements: [], balances: ["pellet": 5], features: [], introEligible: true)
        #expect((try month.status(after: .buyPellets)["subscriptions"] as? [Any])?.isEmpty == true)
    }

    @Test func theIndividualPassStartsWithItsFreeMonth() throws {
        let subscribed = try month.output(.subscribeToIndividual)
        #expect(StoreCommandTests.summaries(subscribed) == ["SUBSCRIBED/INITIAL_BUY"])
        let transaction = StoreCommandTests.transaction(subscribed)
        #expect(transaction["productId"] as? String == "pass.individual")
        #expect(transaction["offerType"] as? Int == 1)
        #expect(transaction["offerDiscountType"] as? String == "FREE_TRIAL")
        #expect(transaction["price"] as? Int == 0)
        let purchase = try #require(transaction["purchaseDate"] as? Int)
        #expect(transaction["expiresDate"] as? Int == Self.oneMonth(after: purchase))

        try expectOwnership(after: .subscribeToIndividual, entitlements: ["pass.individual"], balances: ["pellet": 5],
                            features: Self.passFeatures, introEligible: false)
        let status = try month.subscription(after: .subscribeToIndividual)
        try expectStatus(status, product: "pass.individual", state: "subscribed", givesService: true)
        #expect(status["group_level"] as? Int == 3)
        #expect(status["transaction_id"] as? String == transaction["transactionId"] as? String)
        #expect(status["expiration_date"] as? Int == transaction["expiresDate"] as? Int)
        #expect(status["will_auto_renew"] as? Bool == true)
        #expect(status["auto_renew_product_id"] as? String == "pass.individual")
        #expect(status["grace_period_expiration_date"] is NSNull)
    }

    @Test func upgradingToPremiumTakesEffectAtOnce() throws {
        let upgraded = try month.output(.upgradeToPremium)
        #expect(StoreCommandTests.summaries(upgraded) == ["DID_CHANGE_RENEWAL_PREF/UPGRADE"])
        let premium = StoreCommandTests.transaction(upgraded)
        let individual = StoreCommandTests.transaction(try month.output(.subscribeToIndividual))
        #expect(premium["productId"] as? String == "pass.premium")
        #expect(premium["originalTransactionId"] as? String == individual["transactionId"] as? String)
        #expect(premium["offerType"] == nil, "no second introductory offer in the group")
        let purchase = try #require(premium["purchaseDate"] as? Int)
        #expect(premium["expiresDate"] as? Int == Self.oneMonth(after: purchase))

        try expectOwnership(after: .upgradeToPremium, entitlements: ["pass.premium"], balances: ["pellet": 5],
                            features: Self.premiumFeatures, introEligible: false)
        let status = try month.subscription(after: .upgradeToPremium)
        try expectStatus(status, product: "pass.premium", state: "subscribed", givesService: true)
        #expect(status["group_level"] as? Int == 1)
        #expect(status["transaction_id"] as? String == premium["transactionId"] as? String)
        #expect(status["original_transaction_id"] as? String == individual["transactionId"] as? String)
        #expect(status["expiration_date"] as? Int == premium["expiresDate"] as? Int)
        #expect(status["auto_renew_product_id"] as? String == "pass.premium")
    }

    @Test func theTesterTurnsOnBillingRetryAndTheGracePeriod() throws {
        let settings = try month.output(.turnOnBillingRetryAndGracePeriod)
        #expect(settings["billing_retry"] as? Bool == true)
        #expect(settings["grace_period"] as? Bool == true)
        #expect(settings["ask_to_buy"] as? Bool == false)
        try expectOwnership(after: .turnOnBillingRetryAndGracePeriod, entitlements: ["pass.premium"], balances: ["pellet": 5],
                            features: Self.premiumFeatures, introEligible: false)
        try expectStatus(try month.subscription(after: .turnOnBillingRetryAndGracePeriod),
                         product: "pass.premium", state: "subscribed", givesService: true)
    }

    @Test func theFailedRenewalStartsSixteenDaysOfGrace() throws {
        #expect(StoreCommandTests.summaries(try month.output(.renewalFails)) == ["DID_FAIL_TO_RENEW/GRACE_PERIOD"])
        try expectOwnership(after: .renewalFails, entitlements: ["pass.premium"], balances: ["pellet": 5],
                            features: Self.premiumFeatures, introEligible: false)
        let status = try month.subscription(after: .renewalFails)
        try expectStatus(status, product: "pass.premium", state: "inGracePeriod", givesService: true)
        let expiration = try #require(status["expiration_date"] as? Int)
        #expect(status["grace_period_expiration_date"] as? Int == expiration + 16 * Self.dayInMilliseconds)
        #expect(status["is_in_billing_retry"] as? Bool == true)
        #expect(status["expiration_reason"] as? Int == 2)
        #expect(status["will_auto_renew"] as? Bool == true)
        let now = try #require(try month.status(after: .renewalFails)["now"] as? Int)
        #expect(now >= expiration && now < expiration + 16 * Self.dayInMilliseconds)
    }

    @Test func afterTheGracePeriodBillingRetryGoesOnWithoutService() throws {
        #expect(StoreCommandTests.summaries(try month.output(.gracePeriodEnds)) == ["GRACE_PERIOD_EXPIRED"])
        // StoreKit's rule: billing retry gives no entitlement. The Backyard Birds policy keeps
        // the pass's features during billing retry all the same.
        try expectOwnership(after: .gracePeriodEnds, entitlements: [], balances: ["pellet": 5],
                            features: Self.premiumFeatures, introEligible: false)
        let status = try month.subscription(after: .gracePeriodEnds)
        try expectStatus(status, product: "pass.premium", state: "inBillingRetryPeriod", givesService: false)
        #expect(status["grace_period_expiration_date"] is NSNull)
        #expect(status["is_in_billing_retry"] as? Bool == true)
    }

    @Test func whenBillingRetryEndsThePassExpires() throws {
        #expect(StoreCommandTests.summaries(try month.output(.billingRetryEnds)) == ["EXPIRED/BILLING_RETRY"])
        try expectOwnership(after: .billingRetryEnds, entitlements: [], balances: ["pellet": 5], features: [],
                            introEligible: false)
        let status = try month.subscription(after: .billingRetryEnds)
        try expectStatus(status, product: "pass.premium", state: "expired", givesService: false)
        #expect(status["is_in_billing_retry"] as? Bool == false)
        #expect(status["expiration_reason"] as? Int == 2)
        let expiration = try #require(status["expiration_date"] as? Int)
        let now = try #require(try month.status(after: .billingRetryEnds)["now"] as? Int)
        #expect(now >= expiration + 60 * Self.dayInMilliseconds)
    }

    @Test func refundingThePelletsTakesThemBack() throws {
        let refunded = try month.output(.refundPellets)
        #expect(StoreCommandTests.summaries(refunded) == ["REFUND"])
        try expectOwnership(after: .refundPellets, entitlements: [], balances: [:], features: [], introEligible: false)
        try expectStatus(try month.subscription(after: .refundPellets), product: "pass.premium", state: "expired",
                         givesService: false)
    }

    @Test func theLedgerEndsWithEveryTransactionItsGrantsAndItsVersions() throws {
        let transactions = try #require(try StoreCommandTests.object(month.transactions)["transactions"] as? [[String: Any]])
        #expect(transactions.map { $0["product_id"] as? String } == ["pellet.box", "pass.individual", "pass.premium"])
        #expect(transactions.allSatisfy { $0["customer_id"] as? String == ScriptedMonth.customer && $0["finished"] as? Bool == true })
        #expect(transactions.map { ($0["grants"] as? [[String: Any]])?.count } == [1, 0, 0])
        #expect(transactions.map { ($0["versions"] as? [Any])?.count } == [2, 2, 1],
                "the refund signs the pellets again, and the upgrade the Individual pass")
        let pelletVersions = try #require(transactions.first?["versions"] as? [[String: Any]])
        #expect(pelletVersions.map { $0["revocation_date"] is NSNull } == [true, false])
        #expect(StoreCommandTests.transaction(transactions[0])["revocationReason"] as? Int == 0)
        #expect(StoreCommandTests.transaction(transactions[1])["isUpgraded"] as? Bool == true)

        let notifications = try #require(try StoreCommandTests.object(month.notifications)["notifications"] as? [[String: Any]])
        #expect(StoreCommandTests.summaries(["notifications": notifications]) == [
            "ONE_TIME_CHARGE", "SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF/UPGRADE", "DID_FAIL_TO_RENEW/GRACE_PERIOD",
            "GRACE_PERIOD_EXPIRED", "EXPIRED/BILLING_RETRY", "REFUND",
        ])
    }

    // MARK: - Every payload, verified

    /// A verifier configuration: the one the store signs for, and two that must refuse its
    /// payloads.
    enum Configuration: CaseIterable {
        /// The store's root, bundle id and environment.
        case theStores
        /// Another store's root.
        case anotherRoot
        /// The Production environment (with an app Apple ID, which Production needs).
        case production

        func root(of month: ScriptedMonth) -> String {
            self == .anotherRoot ? month.anotherStoresRootCertificate : month.rootCertificate
        }

        var environment: AppStoreEnvironment { self == .production ? .production : .sandbox }
        var appAppleID: Int64? { self == .production ? 1 : nil }
    }

    /// StoreRules' verdict on a payload: nil when it verifies, else the status Apple's library
    /// names for the failure.
    func storeRulesVerdict(_ payload: ScriptedMonth.Payload, _ configuration: Configuration) throws -> String? {
        let verifier = try SignedDataVerifier(
            rootCertificates: [try X509Certificate(pemRepresentation: configuration.root(of: month))],
            bundleId: ScriptedMonth.bundleID, appAppleId: configuration.appAppleID, environment: configuration.environment)
        do {
            switch payload.kind {
            case .transaction: _ = try verifier.verifyAndDecodeTransaction(payload.jws)
            case .renewal: _ = try verifier.verifyAndDecodeRenewalInfo(payload.jws)
            case .notification: _ = try verifier.verifyAndDecodeNotification(payload.jws)
            }
            return nil
        } catch {
            return error.status.rawValue
        }
    }

    @Test func everyPayloadVerifiesWithStoreRulesUnderTheStoresRootAndOnlyThere() throws {
        let payloads = try month.payloads()
        #expect(Self.counts(payloads) == [.transaction: 5, .renewal: 5, .notification: 7])
        for payload in payloads {
            #expect(try storeRulesVerdict(payload, .theStores) == nil, "\(payload.kind)")
            #expect(try storeRulesVerdict(payload, .anotherRoot) == "VERIFICATION_FAILURE", "\(payload.kind)")
            // A notification names its app Apple ID before its environment is checked.
            #expect(try storeRulesVerdict(payload, .production)
                        == (payload.kind == .notification ? "INVALID_APP_IDENTIFIER" : "INVALID_ENVIRONMENT"), "\(payload.kind)")
        }
    }

    @Test(.enabled(if: TestPrerequisite.runs(AppleLibrary.isInstalled), "needs .venv: run scripts/crosscheck/setup.sh"))
    func everyPayloadVerifiesWithApplesLibraryUnderTheStoresRootAndOnlyThere() throws {
        let payloads = try month.payloads()
        let directory = try TestFolders.make("storerules-month")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configurations = Configuration.allCases
        let requests = try configurations.enumerated().flatMap { index, configuration in
            let rootFile = directory.appendingPathComponent("root-\(index).pem")
            try configuration.root(of: month).write(to: rootFile, atomically: true, encoding: .utf8)
            return payloads.map {
                AppleLibrary.Request(
                    root: rootFile.path, bundleId: ScriptedMonth.bundleID, environment: configuration.environment.rawValue,
                    appAppleId: configuration.appAppleID, kind: $0.kind.rawValue, jws: $0.jws)
            }
        }
        let verdicts = try ScriptedMonth.verifyWithAppleLibrary(requests)
        for (index, configuration) in configurations.enumerated() {
            for (payload, verdict) in zip(payloads, verdicts.dropFirst(index * payloads.count).prefix(payloads.count)) {
                let storeRules = try storeRulesVerdict(payload, configuration)
                #expect(verdict.status == storeRules, "\(configuration) \(payload.kind): Apple \(verdict.status ?? "accepts")")
                #expect(verdict.ok == (configuration == .theStores), "\(configuration) \(payload.kind)")
                guard verdict.ok else { continue }
                let signed = try StoreCommandTests.object(try CompactJWS(parsing: payload.jws).payload)
                let mismatches = JSONFieldComparison.mismatches(signed, in: verdict.decoded)
                #expect(mismatches.isEmpty, "\(payload.kind): Apple's library decodes \(mismatches) differently")
            }
        }
    }

    // MARK: - Helpers

    /// Checks `entitlements --json` after `step`.
    private func expectOwnership(after step: Step, entitlements: [String], balances: [String: Int], features: [String],
                                 introEligible: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let owned = try month.entitlements(after: step)
        #expect(owned["customer_id"] as? String == ScriptedMonth.customer, sourceLocation: sourceLocation)
        #expect(owned["entitlements"] as? [String] == entitlements, "\(step)", sourceLocation: sourceLocation)
        #expect(owned["balances"] as? [String: Int] == balances, "\(step)", sourceLocation: sourceLocation)
        #expect(owned["features"] as? [String] == features, "\(step)", sourceLocation: sourceLocation)
        #expect(owned["intro_offer_eligibility"] as? [String: Bool] == [ScriptedMonth.passGroup: introEligible], "\(step)",
                sourceLocation: sourceLocation)
    }

    /// Checks the group, product, state and service of a subscription status.
    private func expectStatus(_ status: [String: Any], product: String, state: String, givesService: Bool,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(status["customer_id"] as? String == ScriptedMonth.customer, sourceLocation: sourceLocation)
        #expect(status["group_id"] as? String == ScriptedMonth.passGroup, sourceLocation: sourceLocation)
        #expect(status["product_id"] as? String == product, sourceLocation: sourceLocation)
        #expect(status["state"] as? String == state, sourceLocation: sourceLocation)
        #expect(status["gives_service"] as? Bool == givesService, sourceLocation: sourceLocation)
        #expect(status["speaks_for_group"] as? Bool == true, sourceLocation: sourceLocation)
        #expect(status["ownership_type"] as? String == "PURCHASED", sourceLocation: sourceLocation)
        #expect((status["signed_transaction_info"] as? String)?.split(separator: ".").count == 3, sourceLocation: sourceLocation)
        #expect((status["signed_renewal_info"] as? String)?.split(separator: ".").count == 3, sourceLocation: sourceLocation)
    }

    /// The date one month of the store calendar (Gregorian, UTC) after `milliseconds`.
    static func oneMonth(after milliseconds: Int) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        return Int((calendar.date(byAdding: .month, value: 1, to: date)!.timeIntervalSince1970 * 1000).rounded())
    }

    static func counts(_ payloads: [ScriptedMonth.Payload]) -> [ScriptedMonth.Payload.Kind: Int] {
        Dictionary(grouping: payloads, by: \.kind).mapValues(\.count)
    }
}
