import Foundation
import LuaBridge
import StoreCore
import Testing
@testable import StorePolicy

/// `ctx.customer` built from the ledger, and the policy's features and grants decided from it.
@Suite struct CustomerContextFromLedgerTests {
    typealias Store = BackyardBirdsLedger
    let pass = Store.pass

    /// Ada: a golden feeder, the family pass with a downgrade scheduled, and bird food.
    private func adasStore() throws -> Store {
        let store = try Store()
        let decide = try store.engine().grantDecision(for: store.ledger, catalog: store.catalog)
        try store.ingest(Store.transaction("1", product: "feeder.golden", type: .nonConsumable, bought: 1), decide: decide)
        try store.ingest(Store.transaction("2", product: "pass.family", type: .autoRenewableSubscription, bought: 2), decide: decide)
        try store.ingest(Store.renewal("2", product: "pass.family", renewsTo: "pass.individual", signed: 3))
        try store.ingest(Store.transaction("3", product: "pellet.box", type: .consumable, quantity: 2, bought: 4), decide: decide)
        try store.ingest(Store.transaction("4", product: "nectar.cup", type: .consumable, bought: 5), decide: decide)
        return store
    }

    @Test func everyFieldOfTheContextComesFromTheLedger() throws {
        let store = try adasStore()
        let context = try CustomerContext(
            customerID: "ada", ledger: store.ledger, catalog: store.catalog, at: Store.day(10), attributes: ["tier": .string("gold")])

        let expected = CustomerContext(
            id: "ada", seed: CustomerContext.seed(for: "ada"), statusKnown: true,
            entitlements: ["feeder.golden", "pass.family"],
            subscriptions: [
                pass: SubscriptionSnapshot(
                    productID: "pass.family", groupLevel: 2, state: .subscribed, willAutoRenew: true,
                    expirationDate: Store.day(32), introEligible: false, paidMonths: 1),
            ],
            balances: ["pellet": 10, "nectar": 1],
            attributes: ["tier": .string("gold")])
        #expect(context == expected)
    }

    @Test func theLuaPolicySeesEveryFieldAsTheContractNamesIt() throws {
        let store = try adasStore()
        let engine = try store.engine("""
        local policy = {}
        function policy.features(ctx)
            local c = ctx.customer
            local s = c.subscriptions["\(pass)"]
            return {
                "id=" .. c.id, "seed=" .. c.seed, "known=" .. tostring(c.status_known),
                "entitlements=" .. table.concat(c.entitlements, ","),
                "product=" .. s.product_id, "level=" .. s.group_level, "state=" .. s.state,
                "renews=" .. tostring(s.will_auto_renew), "expires=" .. s.expiration_date,
                "intro=" .. tostring(s.intro_eligible),
                "pellets=" .. c.balances.pellet, "nectar=" .. c.balances.nectar, "tier=" .. c.attributes.tier,
                "now=" .. ctx.now, "storefront=" .. ctx.storefront, "locale=" .. ctx.locale,
                "environment=" .. ctx.environment,
            }
        end
        return policy
        """)
        let decision = try engine.features(
            forCustomer: "ada", ledger: store.ledger, catalog: store.catalog, at: Store.day(10), environment: .sandbox,
            attributes: ["tier": .string("gold")])
        #expect(decision.source == .policy)
        #expect(decision.value == [
            "id=ada", "seed=\(CustomerContext.seed(for: "ada"))", "known=true",
            "entitlements=feeder.golden,pass.family",
            "product=pass.family", "level=2", "state=subscribed", "renews=true",
            "expires=\(Int64(Store.day(32).timeIntervalSince1970))", "intro=false",
            "pellets=10", "nectar=1", "tier=gold",
            "now=\(Int64(Store.day(10).timeIntervalSince1970))", "storefront=\(store.catalog.storefront.countryCode)",
            "locale=\(store.catalog.localeIdentifier)", "environment=sandbox",
        ])
    }

    @Test func withoutACatalogGroupLevelsComeFromTheEnginesCatalog() throws {
        let store = try adasStore()
        let engine = try store.engine("""
        local policy = {}
        function policy.features(ctx)
            local s = ctx.customer.subscriptions["\(pass)"]
            return { "level=" .. s.group_level, "storefront=" .. ctx.storefront, "locale=" .. ctx.locale }
        end
        return policy
        """)
        let decision = try engine.features(forCustomer: "ada", ledger: store.ledger, at: Store.day(10))
        #expect(decision.value == ["level=2", "storefront=USA", "locale=en_US"])
        #expect(try CustomerContext(customerID: "ada", ledger: store.ledger, at: Store.day(10)).subscriptions[pass]?.groupLevel == 0)
    }

    @Test func theExamplePolicyUnlocksFeaturesFollowingTheSubscriptionState() throws {
        let store = try adasStore()
        let engine = try store.engine()
        func features(onDay day: Double) throws -> [String] {
            let decision = try engine.features(forCustomer: "ada", ledger: store.ledger, catalog: store.catalog, at: Store.day(day))
            #expect(decision.source == .policy)
            return decision.value
        }
        #expect(try features(onDay: 10) == ["unlimited_backyards", "decorations", "family_sharing", "golden_feeder"])

        // The renewal fails: the example policy keeps the pass during billing retry, although
        // the App Store's entitlements no longer list it.
        try store.ingest(Store.renewal("2", product: "pass.family", billingRetry: true, signed: 32))
        let retrying = try CustomerContext(customerID: "ada", ledger: store.ledger, catalog: store.catalog, at: Store.day(33))
        #expect(retrying.subscriptions[pass]?.state == .inBillingRetry)
        #expect(retrying.entitlements == ["feeder.golden"])
        #expect(try features(onDay: 33) == ["unlimited_backyards", "decorations", "family_sharing", "golden_feeder"])

        // The retry ends and the feeder is refunded: nothing is left.
        try store.ingest(Store.renewal("2", product: "pass.family", autoRenew: .off, signed: 40))
        try store.ingest(Store.transaction("1", product: "feeder.golden", type: .nonConsumable, bought: 1, signed: 41, revoked: 41)) { _ in [] }
        #expect(try features(onDay: 42) == [])
    }

    @Test func gracePeriodAndRevocationShowInThePolicysWords() throws {
        let store = try Store()
        let decide = try store.engine().grantDecision(for: store.ledger, catalog: store.catalog)
        try store.ingest(Store.transaction("10", product: "pass.premium", type: .autoRenewableSubscription, bought: 0), decide: decide)
        try store.ingest(Store.renewal("10", product: "pass.premium", billingRetry: true, graceUntil: 36, signed: 30))

        let grace = try CustomerContext(customerID: "ada", ledger: store.ledger, catalog: store.catalog, at: Store.day(31))
        #expect(grace.subscriptions[pass]?.state == .inGracePeriod)
        #expect(grace.subscriptions[pass]?.expirationDate == Store.day(30))
        #expect(grace.entitlements == ["pass.premium"])
        #expect(grace.hasActiveSubscription)

        try store.ingest(Store.transaction("10", product: "pass.premium", type: .autoRenewableSubscription, bought: 0, signed: 32, revoked: 32), decide: decide)
        let revoked = try CustomerContext(customerID: "ada", ledger: store.ledger, catalog: store.catalog, at: Store.day(33))
        #expect(revoked.subscriptions[pass]?.state == .revoked)
        #expect(revoked.entitlements.isEmpty)
        #expect(!revoked.hasActiveSubscription)
    }

    @Test func aCustomerWithoutPurchasesHasAKnownEmptyContext() throws {
        let store = try Store()
        let context = try CustomerContext(customerID: "newcomer", ledger: store.ledger, catalog: store.catalog)
        #expect(context == CustomerContext(id: "newcomer", statusKnown: true))
        let decision = try store.engine().features(forCustomer: "newcomer", ledger: store.ledger, catalog: store.catalog)
        #expect(decision.value == [])
        #expect(decision.source == .policy)
        #expect(throws: LedgerError.invalidCustomerID(CustomerID.problem(with: "")!)) {
            try store.engine().features(forCustomer: "", ledger: store.ledger)
        }
    }

    @Test(arguments: Product.SubscriptionInfo.RenewalState.allCases)
    func everyRenewalStateHasItsPolicyWord(state: Product.SubscriptionInfo.RenewalState) {
        let words: [Product.SubscriptionInfo.RenewalState: String] = [
            .subscribed: "subscribed", .expired: "expired", .inBillingRetryPeriod: "in_billing_retry",
            .inGracePeriod: "in_grace_period", .revoked: "revoked",
        ]
        #expect(SubscriptionState(state).rawValue == words[state])
        #expect(SubscriptionState(state).isEntitled == state.givesService)
    }

    @Test func appStoreEnvironmentsMapToPolicyEnvironments() {
        #expect(PolicyContext.Environment(AppStoreEnvironment.production) == .production)
        #expect(PolicyContext.Environment(AppStoreEnvironment.sandbox) == .sandbox)
        #expect(PolicyContext.Environment(AppStoreEnvironment.xcode) == .xcode)
        #expect(PolicyContext.Environment(AppStoreEnvironment.localTesting) == .xcode)
        #expect(PolicyContext.Environment(AppStoreEnvironment(rawValue: "Future")) == .xcode)
    }
}
