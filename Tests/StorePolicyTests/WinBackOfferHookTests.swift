import Foundation
import LuaBridge
import StoreCore
@testable import StorePolicy
import Testing

@Suite struct WinBackOfferHookTests {
    private static let offerID = "premium.welcome.back"

    private func engine(_ source: String? = nil) throws -> PolicyEngine {
        let folder = BackyardBirdsLedger.folder
        let catalog = PolicyCatalog(try #require(try folder.loadCatalog()))
        return try PolicyEngine(source: source.map { PolicySource(text: $0) } ?? folder.policySource(), catalog: catalog)
    }

    /// A second win-back offer of Premium, which the catalog lists before ``offerID``.
    private static let halfPriceOfferID = "premium.half.price.back"

    /// An engine running `source` over Backyard Birds with ``halfPriceOfferID`` added first to
    /// Premium's win-back offers.
    private func engineWithTwoOffers(_ source: String) throws -> PolicyEngine {
        let url = try #require(BackyardBirdsLedger.folder.catalogURL)
        let text = try String(contentsOf: url, encoding: .utf8)
        let offer = #"""
            "winbackOffers" : [
                {"displayPrice": "4.99", "internalID": "C8E3F2B5", "numberOfPeriods": 3, "offerID": "\#(Self.halfPriceOfferID)",
                 "paymentMode": "payAsYouGo", "referenceName": "Half price back", "subscriptionPeriod": "P1M"},
            """#
        let edited = text.replacingOccurrences(of: #""winbackOffers" : ["#, with: offer)
        #expect(edited != text)
        let catalog = try Catalog(data: Data(edited.utf8), fileName: url.lastPathComponent)
        return try PolicyEngine(source: PolicySource(text: source), catalog: PolicyCatalog(catalog))
    }

    /// A bird watcher whose Premium pass lapsed, with the win-back offers their renewal info names.
    private func lapsed(offers: [String] = [offerID], state: SubscriptionState = .expired) -> PolicyContext {
        PolicyContext(now: BackyardBirdsLedger.day(40), locale: "en_US", customer: CustomerContext(
            id: "watcher", statusKnown: true, entitlements: [],
            subscriptions: [BackyardBirdsLedger.pass: SubscriptionSnapshot(
                productID: "pass.premium", groupLevel: 1, state: state, willAutoRenew: false,
                expirationDate: BackyardBirdsLedger.day(28), winBackOfferIDs: offers)]))
    }

    @Test func aLapsedWatcherSeesTheWinBackCardThePolicyPicks() throws {
        let plan = try engine().storefrontPlan(lapsed(), placement: "home")
        let card = try #require(plan.subscriptionStores.first?.winBack)
        #expect(card == StorefrontPlan.WinBackCard(productID: "pass.premium", displayName: "Premium", offerID: Self.offerID,
                                                   offer: "2 months at $2.99/month", displayPrice: "$11.99", period: "month"))
        #expect(plan.decisions.contains { $0.hook == "winback_offer" && $0.outcome == Self.offerID && $0.source == "policy" })
        #expect(plan.summary.contains("win back: Premium — 2 months at $2.99/month"))
        let html = StorefrontHTML.render(plan, title: "Backyard Birds")
        #expect(html.contains(#"data-testid="win-back" data-offer="premium.welcome.back""#))
        var writer = JSONTextWriter()
        writer.write(plan)
        #expect(String(decoding: writer.bytes, as: UTF8.self).contains(#""win_back":{"#))
    }

    @Test func noCardWithoutEligibleOffersOrWhileSubscribed() throws {
        let engine = try engine()
        #expect(engine.storefrontPlan(lapsed(offers: []), placement: "home").subscriptionStores.first?.winBack == nil)
        #expect(engine.storefrontPlan(lapsed(offers: ["offer.of.another.app"]), placement: "home").subscriptionStores.first?.winBack == nil)
        #expect(engine.storefrontPlan(lapsed(state: .subscribed), placement: "home").subscriptionStores.first?.winBack == nil)
    }

    @Test func withoutTheHookTheOfferAppleRanksFirstOfSeveralIsShown() throws {
        let engine = try engineWithTwoOffers("return {}")
        for ranked in [[Self.offerID, Self.halfPriceOfferID], [Self.halfPriceOfferID, Self.offerID]] {
            let decision = engine.winBackOffer(lapsed(offers: ranked), productID: "pass.premium", offerIDs: ranked)
            #expect(decision.value == ranked[0], "\(ranked)")
            #expect(decision.source == .defaultForMissingHook)
            let card = engine.storefrontPlan(lapsed(offers: ranked), placement: "home").subscriptionStores.first?.winBack
            #expect(card?.offerID == ranked[0], "\(ranked)")
        }
    }

    @Test func aHookSeesTheOffersAndTheContextAndMayDecline() throws {
        let engine = try engine("""
            return { winback_offer = function(ctx, product, offers)
                local seen = ctx.customer.subscriptions["\(BackyardBirdsLedger.pass)"].win_back_offers
                if seen[1] ~= offers[1].id or offers[1].payment_mode ~= "pay_as_you_go" or product.id ~= "pass.premium" then
                    error("unexpected arguments")
                end
                return nil
            end }
            """)
        let decision = engine.winBackOffer(lapsed(), productID: "pass.premium", offerIDs: [Self.offerID])
        #expect(decision.value == nil)
        #expect(decision.source == .policy)
        #expect(engine.storefrontPlan(lapsed(), placement: "home").subscriptionStores.first?.winBack == nil)
    }

    @Test func anAnswerThatIsNotAnEligibleOfferFallsBackToNone() throws {
        let engine = try engine(#"return { winback_offer = function() return "premium.three.months" end }"#)
        let decision = engine.winBackOffer(lapsed(), productID: "pass.premium", offerIDs: [Self.offerID])
        #expect(decision.value == nil)
        #expect(decision.failure?.description.contains(#"expected the id of one of the offers ("premium.welcome.back") or nil"#) == true)
        let summary = engine.storefrontPlan(lapsed(), placement: "home").summary
        #expect(summary.contains("fallback: winback_offer (pass.premium) decided none: "), "\(summary)")
    }

    @Test func aStrictContextRefusesAMisspelledField() throws {
        let engine = try engine("""
            return { winback_offer = function(ctx, product, offers)
                return ctx.customer.subscriptions["\(BackyardBirdsLedger.pass)"].winback_offers[1]
            end }
            """)
        let decision = engine.winBackOffer(lapsed(), productID: "pass.premium", offerIDs: [Self.offerID])
        #expect(decision.value == nil)
        #expect(decision.failure?.description.contains("win_back_offers") == true)
    }

    @Test func theOffersAndTheCatalogsOffersAreStrict() throws {
        let engine = try engine("""
            return { winback_offer = function(ctx, product, offers)
                if offers[1].period_count ~= 2 or offers[1].paymentmode then return "x" end
                return nil
            end,
            plan_icon = function(ctx, plan)
                return plan.subscription.promotional_offers[1].offerid
            end }
            """)
        let decision = engine.winBackOffer(lapsed(), productID: "pass.premium", offerIDs: [Self.offerID])
        #expect(decision.failure?.description.contains("an offer has no field 'paymentmode' (did you mean 'payment_mode'?)") == true,
                "\(String(describing: decision.failure))")
        let icon = engine.planIcon(lapsed(), productID: "pass.premium")
        #expect(icon.failure?.description.contains("an offer has no field 'offerid'") == true,
                "\(String(describing: icon.failure))")
    }

    @Test func theWorkedRuleWinsBackOnlyCustomersWhoPaidForThreeMonths() throws {
        let engine = try engine("""
            return { winback_offer = function(ctx, product, offers)
                local subscription = ctx.customer.subscriptions[product.subscription.group_id]
                if subscription == nil or subscription.paid_months < 3 then return nil end
                return offers[1].id
            end }
            """)
        var context = lapsed()
        for (months, expected) in [(2.9, nil), (3.0, Self.offerID as String?)] {
            context.customer.subscriptions[BackyardBirdsLedger.pass]?.paidMonths = months
            #expect(engine.winBackOffer(context, productID: "pass.premium", offerIDs: [Self.offerID]).value == expected)
        }
    }

    @Test func decideTakesOfferIdsOrOfferTablesAndDefaultsToEveryOffer() throws {
        let engine = try engine()
        for arguments: [LuaValue] in [
            [.string("pass.premium")],
            [.string("pass.premium"), .table(LuaTable(array: [.string(Self.offerID)]))],
            [.string("pass.premium"), .table(LuaTable(array: [.table(LuaTable(hash: [.string("id"): .string(Self.offerID)]))]))],
        ] {
            let response = try HookRequest(hook: "winback_offer", context: lapsed(), arguments: arguments).evaluate(with: engine)
            #expect(response.result == .string(Self.offerID), "\(arguments)")
        }
        let refused = #expect(throws: PolicyError.self) {
            try HookRequest(hook: "winback_offer", context: lapsed(), arguments: [.string("pass.premium"), .integer(3)])
                .evaluate(with: engine)
        }
        #expect(refused?.description.contains("must be the eligible offers") == true)
        let unknown = #expect(throws: PolicyError.self) {
            try HookRequest(hook: "winback_offer", context: lapsed(), arguments: [.string("pass.premium"), .table(LuaTable(array: [.string("nope")]))])
                .evaluate(with: engine)
        }
        #expect(unknown?.description.contains("'nope' is not a win-back offer of 'pass.premium' (its offers: premium.welcome.back)") == true)
        let notSubscription = #expect(throws: PolicyError.self) {
            try HookRequest(hook: "winback_offer", context: lapsed(), arguments: [.string("pellet.box")]).evaluate(with: engine)
        }
        #expect(notSubscription?.description.contains("'pellet.box' is not an auto-renewable subscription") == true)
        let active = try HookRequest(hook: "winback_offer", context: lapsed(offers: []), arguments: [.string("pass.premium")])
            .evaluate(with: engine)
        #expect(active.result == .null, "by default the offers are the context's, and it has none")
    }
}
