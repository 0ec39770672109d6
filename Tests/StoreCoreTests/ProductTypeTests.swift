import Testing
@testable import StoreCore

@Suite struct ProductTypeTests {
    @Test func everyKindOfPurchaseIsNamed() {
        #expect(ProductType.allCases.count == 4)
    }
}
