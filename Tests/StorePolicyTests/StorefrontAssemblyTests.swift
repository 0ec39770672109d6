import Foundation
import Testing
@testable import StorePolicy

/// What a storefront plan works out once per policy version or per day — the store's order by
/// price, the plans' wording, the status line's date — gives what working it out each time did.
@Suite struct StorefrontAssemblyTests {
    private func product(_ id: String, price: String) -> PolicyProduct {
        PolicyProduct(id: id, type: "consumable", displayName: id, description: "", price: price, displayPrice: "$" + price,
                      isFamilyShareable: false, subscription: nil)
    }

    @Test func theStoreIsOrderedByProminenceThenPriceAsANumberThenID() throws {
        // "10.00" sorts above "9.50" as a number, not as text; "free" reads as 0; equal prices go by id.
        let products = [product("seeds.large", price: "10.00"), product("seeds.small", price: "9.50"),
                        product("water", price: "free"), product("nuts.b", price: "2.00"), product("nuts.a", price: "2.00"),
                        product("feeder", price: "30.00")]
        let catalog = PolicyCatalog(products: Dictionary(uniqueKeysWithValues: products.map { ($0.id, $0) }), groups: [:])
        let engine = try PolicyEngine(source: PolicySource(text: """
        return {
            product_style = function(ctx, product)
                if product.id == "feeder" then return "compact" end
                if product.id == "seeds.large" then return "large" end
                return "regular"
            end,
        }
        """), catalog: catalog)
        let plan = engine.storefrontPlan(newCustomer, placement: "store")
        #expect(plan.products.map(\.id) == ["seeds.large", "water", "nuts.a", "nuts.b", "seeds.small", "feeder"])
    }

    @Test func aStatusLineDateIsTheExpirationsUTCDayInTheContextsLocale() throws {
        let engine = try PolicyEngine(source: PolicySource(text: "return {}"), catalog: testCatalog)
        func line(expiring seconds: TimeInterval, locale: String) -> String? {
            var context = subscriber("pass.family", level: 2)
            context.locale = locale
            context.customer.subscriptions["PASS"]?.expirationDate = Date(timeIntervalSince1970: seconds)
            return engine.storefrontPlan(context, placement: "home").statusLine
        }
        let lastSecondOfADay = 1_767_225_599.0 // 2025-12-31 23:59:59 UTC
        #expect(line(expiring: lastSecondOfADay, locale: "en_US") == "Renews Dec 31, 2025")
        #expect(line(expiring: lastSecondOfADay + 1, locale: "en_US") == "Renews Jan 1, 2026")
        #expect(line(expiring: lastSecondOfADay - 86_399, locale: "en_US") == "Renews Dec 31, 2025")
        #expect(line(expiring: lastSecondOfADay, locale: "en_GB") == "Renews 31 Dec 2025")
        // Before 1970 a day still starts at midnight UTC: the second before 1970 is not 1970's first day.
        #expect(line(expiring: 0, locale: "en_US") == "Renews Jan 1, 1970")
        #expect(line(expiring: -1, locale: "en_US") == "Renews Dec 31, 1969")
        #expect(line(expiring: -86_400, locale: "en_US") == "Renews Dec 31, 1969")
    }

    @Test func aPlansOffersAreWordedFromTheCatalogOfThePolicyThatDecides() throws {
        let intro = PolicyProduct.Offer(id: nil, type: "introductory", paymentMode: "free_trial", price: "0", displayPrice: "$0.00",
                                        period: .init(unit: "week", value: 1), periodCount: 2)
        var catalog = testCatalog
        catalog.products["pass.family"]?.subscription?.introductoryOffer = intro
        let engine = try PolicyEngine(source: PolicySource(text: "return {}"), catalog: testCatalog)
        #expect(engine.storefrontPlan(newCustomer, placement: "home").subscriptionStores.first?.plans.map(\.offer) == [nil, nil, nil])
        try engine.reload(PolicySource(text: "return {}"), catalog: catalog)
        let plans = try #require(engine.storefrontPlan(newCustomer, placement: "home").subscriptionStores.first?.plans)
        #expect(plans.map(\.offer) == [nil, "2 weeks free", nil])
        #expect(plans.map(\.buttonLabel) == ["Subscribe", "Try 2 weeks free", "Subscribe"])
        #expect(plans.map(\.period) == ["month", "month", "month"])
    }
}
