import Foundation
import Testing
@testable import StoreCore

@Suite struct CatalogSettingsTests {
    @Test func missingSettingsTakeStoreKitTestingDefaults() throws {
        let withoutSettings = try CatalogJSON.load(#"{"products":[],"version":{"major":1,"minor":0}}"#)
        #expect(withoutSettings.settings == Catalog.Settings())
        #expect(withoutSettings.settings.storefront == "USA")
        #expect(withoutSettings.settings.localeIdentifier == "en_US")
        #expect(withoutSettings.settings.timeRate == .realTime)
        #expect(withoutSettings.products.isEmpty)
        #expect(withoutSettings.subscriptionGroups.isEmpty)
        #expect(try CatalogJSON.load(CatalogJSON.document(settings: "null")).settings == Catalog.Settings())
    }

    @Test func everySettingIsRead() throws {
        let settings = #"""
        {
          "_applicationInternalID" : "1552944963",
          "_askToBuyEnabled" : true,
          "_billingGracePeriodEnabled" : true,
          "_billingIssuesEnabled" : true,
          "_compatibilityTimeRate" : { "3" : 6 },
          "_developerTeamID" : "8SXR2327BM",
          "_disableDialogs" : true,
          "_failTransactionsEnabled" : true,
          "_lastSynchronizedDate" : 743722291.470198,
          "_locale" : "ko_KR",
          "_renewalBillingIssuesEnabled" : true,
          "_storefront" : "KOR",
          "_storeKitErrors" : [
            { "current" : { "index" : 4, "type" : "generic" }, "enabled" : true, "name" : "Purchase" },
            { "current" : null, "enabled" : false, "name" : "Future Sheet" }
          ],
          "_timeRate" : 1005,
          "_someFutureSetting" : [1, 2, 3]
        }
        """#
        let catalog = try CatalogJSON.load(CatalogJSON.document(settings: settings))
        let expected = Catalog.Settings(
            storefront: "KOR", localeIdentifier: "ko_KR", timeRate: .oneRenewalEveryTwoSeconds,
            compatibilityTimeRate: .oneSecondIsOneDay, askToBuyEnabled: true, shouldEnterBillingRetryOnRenewal: true,
            billingGracePeriodIsEnabled: true, billingIssuesEnabled: true, failTransactionsEnabled: true,
            disableDialogs: true, applicationInternalID: "1552944963", developerTeamID: "8SXR2327BM",
            lastSynchronizedDate: Date(timeIntervalSinceReferenceDate: 743722291.470198),
            storeKitErrors: [
                StoreKitErrorSetting(name: "Purchase", isEnabled: true, error: .init(index: 4, type: "generic")),
                StoreKitErrorSetting(name: "Future Sheet", isEnabled: false, error: nil),
            ])
        #expect(catalog.settings == expected)
        #expect(catalog.settings.storeKitErrors.map(\.api) == [.purchase, nil])
        #expect(catalog.localeIdentifier == "ko_KR")
        #expect(catalog.storefront.currencyCode == "KRW")
        let synced = Calendar.storeCalendar.dateComponents([.year, .month, .day], from: catalog.settings.lastSynchronizedDate!)
        #expect((synced.year, synced.month, synced.day) == (2024, 7, 26))
    }

    @Test func compatibilityTimeRateMayBeAPlainNumberOrAnObject() throws {
        let plain = try CatalogJSON.load(CatalogJSON.document(settings: #"{"_compatibilityTimeRate":6,"_timeRate":15}"#))
        #expect(plain.settings.compatibilityTimeRate == .oneSecondIsOneDay)
        #expect(plain.settings.timeRate == .monthlyRenewalEveryThirtySeconds)
        let byCapability = try CatalogJSON.load(CatalogJSON.document(settings: #"{"_compatibilityTimeRate":{"3":6,"10":13}}"#))
        #expect(byCapability.settings.compatibilityTimeRate == .monthlyRenewalEveryFiveMinutes)
        let empty = try CatalogJSON.load(CatalogJSON.document(settings: #"{"_compatibilityTimeRate":{}}"#))
        #expect(empty.settings.compatibilityTimeRate == nil)
    }

    @Test func offerSigningKeyIsDecoded() throws {
        let key = Data([0x30, 0x81, 0x87, 0x02, 0x01, 0x00])
        let catalog = try CatalogJSON.load(CatalogJSON.document(
            extra: #""subscriptionOffersKeyPair":{"id":"851B7BE3","privateKey":"\#(key.base64EncodedString())"}"#))
        #expect(catalog.subscriptionOffersKeyPair == SubscriptionOffersKeyPair(id: "851B7BE3", privateKey: key))
    }
}
