import Foundation
@testable import StoreCore

/// The reference `.storekit` files, read from `../shared/fixtures/storekit` beside the package.
enum CatalogFixtures {
    /// The folder of reference files.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // StoreCoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("../shared/fixtures/storekit")
        .standardizedFileURL

    /// Whether the reference files are there to test against.
    static let isAvailable: Bool = FileManager.default.fileExists(atPath: directory.path)

    /// The names of every `.storekit` file in the folder; empty when it is absent.
    static let fileNames: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".storekit") }.sorted()
    }()

    static let backyardBirds = "apple__sample-backyard-birds__Store.storekit"
    static let foodTruck = "apple__sample-food-truck__Products.storekit"
    static let skDemo = "cntrump__SKDemo__Products.storekit"
    static let originalSKDemo = "rudifa__ImplementingAStoreInYourAppUsingTheStoreKitAPI__Products.storekit"
    static let caffeinePal = "superwall__CaffeinePal__CaffinePalProducts.storekit"
    static let revenueCatUnitTests = "RevenueCat__purchases-ios__UnitTestsConfiguration.storekit"
    static let revenueCatTester = "RevenueCat__purchases-ios__RCTTester.storekit"
    static let revenueCatVersion1 = "RevenueCat__purchases-ios__SwiftExample-Configuration-v1.0.storekit"

    /// Loads the reference file `name`.
    static func load(_ name: String, localeIdentifier: String? = nil, storefront: String? = nil) throws -> Catalog {
        try Catalog(contentsOf: directory.appendingPathComponent(name), localeIdentifier: localeIdentifier,
                    storefront: storefront)
    }
}

/// Small `.storekit` documents written inline for tests.
enum CatalogJSON {
    /// An in-app purchase entry of `products` or `nonRenewingSubscriptions`.
    static func product(_ id: String, type: String = "Consumable", price: String = "0.99",
                        localizations: String = #"[{"description":"A thing","displayName":"Thing","locale":"en_US"}]"#) -> String {
        #"{"displayPrice":"\#(price)","familyShareable":false,"internalID":"0000","localizations":\#(localizations),"productID":"\#(id)","referenceName":"\#(id)","type":"\#(type)"}"#
    }

    /// An auto-renewable subscription entry; `extra` adds members such as offers.
    static func subscription(_ id: String, groupID: String = "G1", level: Int = 1, period: String = "P1M",
                             price: String = "4.99", extra: String = "") -> String {
        let members = extra.isEmpty ? "" : extra + ","
        return #"{\#(members)"displayPrice":"\#(price)","familyShareable":true,"groupNumber":\#(level),"internalID":"1111","localizations":[{"description":"","displayName":"\#(id) name","locale":"en_US"}],"productID":"\#(id)","recurringSubscriptionPeriod":"\#(period)","referenceName":"\#(id)","subscriptionGroupID":"\#(groupID)","type":"RecurringSubscription"}"#
    }

    /// A subscription group entry.
    static func group(_ subscriptions: [String], id: String = "G1", name: String = "Pass", localizations: String = "[]") -> String {
        #"{"id":"\#(id)","localizations":\#(localizations),"name":"\#(name)","subscriptions":[\#(subscriptions.joined(separator: ","))]}"#
    }

    /// A whole document.
    static func document(products: [String] = [], nonRenewing: [String] = [], groups: [String] = [],
                         settings: String = "{}", extra: String = "") -> String {
        let members = extra.isEmpty ? "" : extra + ","
        return #"{\#(members)"identifier":"ABCD1234","nonRenewingSubscriptions":[\#(nonRenewing.joined(separator: ","))],"products":[\#(products.joined(separator: ","))],"settings":\#(settings),"subscriptionGroups":[\#(groups.joined(separator: ","))],"version":{"major":3,"minor":0}}"#
    }

    /// Loads `json` as "Products.storekit".
    static func load(_ json: String, localeIdentifier: String? = nil, storefront: String? = nil) throws(CatalogError) -> Catalog {
        try Catalog(data: Data(json.utf8), fileName: "Products.storekit", localeIdentifier: localeIdentifier,
                    storefront: storefront)
    }
}
