import Foundation
import Testing
@testable import StorePolicy
import StoreCore

@Suite struct StorefrontPlanTests {
    private func backyardBirds() throws -> PolicyEngine {
        let folder = BackyardBirdsLedger.folder
        return try PolicyEngine(source: folder.policySource(), catalog: PolicyCatalog(try #require(try folder.loadCatalog())))
    }

    private func member(_ productID: String, _ state: SubscriptionState, renews: Bool = true) -> PolicyContext {
        PolicyContext(now: BackyardBirdsLedger.day(0), locale: "en_GB", customer: CustomerContext(
            id: "watcher", statusKnown: true, entitlements: state.isEntitled ? [productID] : [],
            subscriptions: [BackyardBirdsLedger.pass: SubscriptionSnapshot(
                productID: productID, groupLevel: 0, state: state, willAutoRenew: renews,
                expirationDate: BackyardBirdsLedger.day(28))]))
    }

    private func resolved(_ context: PolicyContext, _ engine: PolicyEngine) -> PolicyContext {
        var context = context
        context.customer.fillMissingGroupLevels(from: engine.catalog)
        return context
    }

    @Test func aNewBirdWatcherSeesEveryPlanWithTheFreeMonth() throws {
        let engine = try backyardBirds()
        let plan = engine.storefrontPlan(PolicyContext(customer: CustomerContext(id: "new", statusKnown: true)), placement: "home")
        #expect(plan.showMerchandising)
        #expect(plan.statusLine == nil)
        let store = try #require(plan.subscriptionStores.first)
        #expect(store.plans.map(\.id) == ["pass.premium", "pass.family", "pass.individual"])
        #expect(store.plans.allSatisfy { $0.offer == "1 month free" && $0.relationship == "new" && $0.buttonLabel == "Try 1 month free" })
        #expect(store.plans.map(\.icon) == ["bird", "person.2", "person"])
        #expect(plan.products.first?.id == "pellet.box")
        #expect(plan.products.first?.style == .large)
        #expect(store.buttons.first { $0.kind == .redeemCode }?.isShown == true)
    }

    @Test func anIndividualSubscriberIsOfferedUpgradesWithoutTheIntroOffer() throws {
        let engine = try backyardBirds()
        let plan = engine.storefrontPlan(resolved(member("pass.individual", .subscribed), engine), placement: "home")
        #expect(!plan.showMerchandising)
        #expect(plan.statusLine == "Renews 29 Mar 2025")
        let store = try #require(plan.subscriptionStores.first)
        #expect(store.currentProductID == "pass.individual")
        #expect(store.plans.map(\.id) == ["pass.premium", "pass.family"])
        #expect(store.plans.allSatisfy { $0.relationship == "upgrade" && $0.offer == nil && $0.buttonLabel == "Upgrade" })
        #expect(plan.decisions.contains { $0.hook == "visible_relationships" && $0.outcome == "upgrade" && $0.source == "policy" })
    }

    @Test func aPremiumSubscriberIsOfferedNothing() throws {
        let engine = try backyardBirds()
        let plan = engine.storefrontPlan(resolved(member("pass.premium", .subscribed, renews: false), engine), placement: "home")
        #expect(plan.subscriptionStores.first?.plans.isEmpty == true)
        #expect(plan.statusLine == "Expires 29 Mar 2025")
    }

    @Test func billingTroubleShowsInTheStatusLineAndALapsedSubscriberSeesThePromotion() throws {
        let engine = try backyardBirds()
        #expect(engine.storefrontPlan(resolved(member("pass.family", .inBillingRetry), engine), placement: "home").statusLine
                == "Billing problem — update payment")
        let lapsed = engine.storefrontPlan(resolved(member("pass.premium", .expired), engine), placement: "home")
        #expect(lapsed.showMerchandising)
        #expect(lapsed.statusLine == "Expired 29 Mar 2025")
        #expect(lapsed.subscriptionStores.first?.plans.first?.offer == "3 months at $5.99/month")
    }

    @Test func theHTMLPageShowsThePlanAndWhy() throws {
        let engine = try backyardBirds()
        let plan = engine.storefrontPlan(resolved(member("pass.individual", .subscribed), engine), placement: "home")
        let page = StorefrontHTML.render(plan, title: "Backyard Birds <home>")
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("<title>Backyard Birds &lt;home&gt;</title>"))
        #expect(page.contains("data-plan=\"pass.premium\""))
        #expect(!page.contains("data-plan=\"pass.individual\""))
        #expect(page.contains("<code>visible_relationships</code>"))
        #expect(page.contains("Renews 29 Mar 2025"))
        #expect(!page.contains("http://") && !page.contains("https://"), "the page is self-contained")
    }

    @Test func aFailingHookShowsAsAFallbackWithItsReason() throws {
        let engine = try PolicyEngine(source: PolicySource(text: "return { product_style = function() error('no styles today') end }"),
                                      catalog: testCatalog)
        let plan = engine.storefrontPlan(newCustomer, placement: "store")
        let note = try #require(plan.decisions.first { $0.hook == "product_style" })
        #expect(note.source == "fallback")
        #expect(note.reason?.contains("no styles today") == true)
        #expect(plan.products.allSatisfy { $0.style == .regular })
    }
}

@Suite struct StorefrontPlanJSONTests {
    private func encoded(_ plan: StorefrontPlan) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(plan))
    }

    private func written(_ plan: StorefrontPlan) -> [UInt8] {
        var writer = JSONTextWriter()
        writer.write(plan)
        return writer.bytes
    }

    @Test(arguments: [SubscriptionState.subscribed, .expired, .inBillingRetry, .inGracePeriod, .revoked])
    func aBackyardBirdsPlanIsWrittenAsItsCodableConformanceEncodesIt(state: SubscriptionState) throws {
        let folder = BackyardBirdsLedger.folder
        let engine = try PolicyEngine(source: folder.policySource(), catalog: PolicyCatalog(try #require(try folder.loadCatalog())))
        var context = PolicyContext(now: BackyardBirdsLedger.day(0), locale: "en_GB", customer: CustomerContext(
            id: "watcher \"one\"/\n", statusKnown: true, entitlements: state.isEntitled ? ["pass.family"] : [],
            subscriptions: [BackyardBirdsLedger.pass: SubscriptionSnapshot(
                productID: "pass.family", groupLevel: 0, state: state, willAutoRenew: false,
                expirationDate: BackyardBirdsLedger.day(28))]))
        context.customer.fillMissingGroupLevels(from: engine.catalog)
        for placement in ["home", "store", "pl\u{1}ace"] {
            let plan = engine.storefrontPlan(context, placement: placement)
            #expect(written(plan) == (try encoded(plan)))
        }
    }

    @Test func aPlanWithAFallbackReasonAndNoCatalogIsWrittenAsEncoded() throws {
        let engine = try PolicyEngine(source: PolicySource(text: "return { show_merchandising = function() error('\\t down') end }"))
        let plan = engine.storefrontPlan(PolicyContext(customer: CustomerContext(id: "", statusKnown: false)), placement: "home")
        #expect(plan.decisions.contains { $0.reason != nil })
        #expect(written(plan) == (try encoded(plan)))
    }
}
