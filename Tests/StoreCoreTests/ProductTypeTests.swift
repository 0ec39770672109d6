import Testing
@testable import StoreCore

@Suite struct ProductTypeTests {
    @Test func everyKindOfPurchaseIsNamed() {
        #expect(ProductType.allCases.count == 4)
    }

    @Test func configurationTypeWordsRoundTrip() {
        for type in ProductType.allCases {
            #expect(ProductType(configurationType: type.configurationType) == type)
        }
        #expect(ProductType(configurationType: "Consumable") == .consumable)
        #expect(ProductType(configurationType: "RecurringSubscription") == .autoRenewable)
        #expect(ProductType(configurationType: "NonRenewingSubscription") == .nonRenewable)
    }

    @Test func unknownConfigurationTypeWordsNameNoType() {
        #expect(ProductType(configurationType: "consumable") == nil)
        #expect(ProductType(configurationType: "Subscription") == nil)
        #expect(ProductType(configurationType: "") == nil)
    }
}
