import Testing
@testable import StoreCore

@Suite struct CatalogLookupTests {
    private let catalog: Catalog

    init() throws {
        catalog = try CatalogJSON.load(CatalogJSON.document(
            products: [CatalogJSON.product("pellet"), CatalogJSON.product("recipe", type: "NonConsumable")],
            nonRenewing: [CatalogJSON.product("season", type: "NonRenewingSubscription")],
            groups: [
                CatalogJSON.group([
                    CatalogJSON.subscription("pass.individual", groupID: "PASS", level: 3),
                    CatalogJSON.subscription("pass.family", groupID: "PASS", level: 2),
                    CatalogJSON.subscription("pass.premium", groupID: "PASS", level: 1),
                    CatalogJSON.subscription("pass.family.yearly", groupID: "PASS", level: 2, period: "P1Y"),
                ], id: "PASS", name: "Pass", localizations: #"[{"description":"","displayName":"Bird Pass","locale":"en_US"}]"#),
                CatalogJSON.group([CatalogJSON.subscription("extra", groupID: "EXTRA")], id: "EXTRA", name: "Extras"),
            ]))
    }

    @Test func catalogListsProductsInFileOrder() {
        #expect(catalog.products.map(\.id) == [
            "pellet", "recipe", "season", "pass.individual", "pass.family", "pass.premium", "pass.family.yearly", "extra",
        ])
        #expect(catalog.products.map(\.type) == [
            .consumable, .nonConsumable, .nonRenewable, .autoRenewable, .autoRenewable, .autoRenewable, .autoRenewable,
            .autoRenewable,
        ])
    }

    @Test func lookupReturnsFoundProductsAndUnavailableIdentifiersInRequestOrder() {
        let lookup = catalog.products(for: ["pass.premium", "missing", "pellet", "pass.premium", "gone", "season"])
        #expect(lookup.products.map(\.id) == ["pass.premium", "pellet", "season"])
        #expect(lookup.unavailableIdentifiers == ["missing", "gone"])
    }

    @Test func lookupOfNothingFindsNothing() {
        #expect(catalog.products(for: []) == ProductLookup(products: [], unavailableIdentifiers: []))
    }

    @Test func singleProductLookup() {
        #expect(catalog.product(id: "recipe")?.type == .nonConsumable)
        #expect(catalog.product(id: "RECIPE") == nil)
    }

    @Test func groupSubscriptionsAreOrderedByLevelThenFileOrder() {
        #expect(catalog.subscriptions(inGroup: "PASS").map(\.id) == [
            "pass.premium", "pass.family", "pass.family.yearly", "pass.individual",
        ])
        #expect(catalog.subscriptions(inGroup: "NONE").isEmpty)
    }

    @Test func groupsCarryTheirLocalizedName() throws {
        let pass = try #require(catalog.group(id: "PASS"))
        #expect(pass.name == "Pass")
        #expect(pass.displayName == "Bird Pass")
        #expect(pass.subscriptions.first?.subscription?.groupDisplayName == "Bird Pass")
        #expect(catalog.group(id: "EXTRA")?.displayName == "Extras")
        #expect(catalog.group(id: "MISSING") == nil)
    }

    @Test func subscriptionsKnowTheirGroup() throws {
        let info = try #require(catalog.product(id: "pass.family.yearly")?.subscription)
        #expect(info.subscriptionGroupID == "PASS")
        #expect(info.groupName == "Pass")
        #expect(info.groupLevel == 2)
        #expect(info.subscriptionPeriod == SubscriptionPeriod(value: 1, unit: .year))
        #expect(catalog.product(id: "season")?.subscription == nil)
    }
}
