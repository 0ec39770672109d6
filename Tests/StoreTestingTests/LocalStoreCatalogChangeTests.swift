import Foundation
@testable import StoreCore
@testable import StoreTesting
import Testing

@Suite struct LocalStoreCatalogChangeTests {
    @Test func aRenewalProductTheCatalogNoLongerSellsEndsTheSubscription() throws {
        let harness = try StoreHarness()
        try harness.buy("pass.basic")
        let retired = StoreHarness.catalogJSON.replacingOccurrences(of: #""productID": "pass.basic""#,
                                                                    with: #""productID": "pass.retired""#)
        let catalog = try Catalog(data: Data(retired.utf8), fileName: "Products.storekit")
        let store = try LocalStore(catalog: catalog, authority: harness.store.authority, ledger: harness.ledger,
                                   state: harness.store.state, configuration: harness.store.configuration, decide: StoreHarness.grants)
        let expired = try store.advance(by: StoreHarness.duration("P1M"))
        #expect(expired.map(\.summary) == ["EXPIRED/PRODUCT_NOT_FOR_SALE"])
        #expect(expired.first?.renewalInfo?.expirationIntent == .productNotAvailable)
    }
}
