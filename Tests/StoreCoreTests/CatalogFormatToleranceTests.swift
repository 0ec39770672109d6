import Foundation
import Testing
@testable import StoreCore

@Suite struct CatalogFormatToleranceTests {
    @Test func keyPresenceNotVersionDecidesWhatIsRead() throws {
        let subscription = CatalogJSON.subscription("annual", period: "P1Y", price: "11.88", extra: #"""
        "billingPlans":[{"billingPlanType":"MONTHLY","commitmentDisplayPrice":"6.00","displayPrice":"0.5","internalID":"8BCD7D45","isEnabled":true}],
        "introductoryOffers":[
          {"billingPlanType":"MONTHLY","numberOfPeriods":2,"paymentMode":"free","subscriptionPeriod":"P1W"},
          {"billingPlanType":"BILLED_UPFRONT","displayPrice":"0.99","paymentMode":"payUpFront","subscriptionPeriod":"P1M"}
        ]
        """#)
        let catalog = try CatalogJSON.load(CatalogJSON.document(groups: [CatalogJSON.group([subscription])]))
        #expect(catalog.formatVersion == Catalog.FormatVersion(major: 3, minor: 0))
        let info = try #require(catalog.product(id: "annual")?.subscription)
        #expect(info.billingPlans.map(\.type) == [.monthly])
        #expect(info.introductoryOffers.map(\.billingPlanType) == [.monthly, .billedUpfront])
        #expect(info.introductoryOffers.first?.periodCount == 2)
        #expect(info.introductoryOffer?.billingPlanType == .billedUpfront)
        #expect(info.introductoryOffer?.price == Decimal(string: "0.99"))
    }

    @Test func unknownKeysAreIgnoredAtEveryLevel() throws {
        let subscription = CatalogJSON.subscription("monthly", extra: #"""
        "futureSubscriptionKey":{"x":1},
        "winbackOffers":[{"displayPrice":"0.99","eligibility":"eligible","offerID":"comeback","paymentMode":"payUpFront","referenceName":"Come back","subscriptionPeriod":"P1M","futureOfferKey":true}]
        """#)
        let product = CatalogJSON.product("tip").replacingOccurrences(of: #""type""#, with: #""futureProductKey":null,"type""#)
        let json = CatalogJSON.document(
            products: [product],
            groups: [CatalogJSON.group([subscription]).replacingOccurrences(of: #""name""#, with: #""futureGroupKey":[],"name""#)],
            extra: #""futureTopLevelKey":{"anything":["goes"]}"#)
        let catalog = try CatalogJSON.load(json)
        #expect(catalog.product(id: "tip") != nil)
        let winBack = try #require(catalog.product(id: "monthly")?.subscription?.winBackOffers.first)
        #expect(winBack.type == .winBack)
        #expect(winBack.id == "comeback")
        #expect(winBack.referenceName == "Come back")
        #expect(winBack.price == Decimal(string: "0.99"))
    }

    @Test func nullAndMissingOptionalKeysMeanNone() throws {
        let sparse = #"{"displayPrice":"2.99","groupNumber":1,"productID":"bare","recurringSubscriptionPeriod":"P1M","introductoryOffer":null,"adHocOffers":null}"#
        let json = CatalogJSON.document(
            products: [#"{"displayPrice":"0.99","productID":"plain","type":"Consumable","localizations":null}"#],
            nonRenewing: [#"{"displayPrice":"9.99","productID":"season"}"#],
            groups: [#"{"id":"G","subscriptions":[\#(sparse)]}"#])
        let catalog = try CatalogJSON.load(json)
        let plain = try #require(catalog.product(id: "plain"))
        #expect(plain.displayName == "")
        #expect(plain.referenceName == "")
        #expect(plain.localizations.isEmpty)
        #expect(!plain.isFamilyShareable)
        #expect(catalog.product(id: "season")?.type == .nonRenewable)
        let bare = try #require(catalog.product(id: "bare"))
        #expect(bare.type == .autoRenewable)
        #expect(bare.subscription?.introductoryOffer == nil)
        #expect(bare.subscription?.promotionalOffers.isEmpty == true)
        #expect(bare.subscription?.groupName == "")
        #expect(catalog.group(id: "G")?.displayName == "")
    }

    @Test func versionOnePointTwoCodeOffersAreRead() throws {
        let subscription = CatalogJSON.subscription("monthly", extra: #"""
        "codeOffers":[{"displayPrice":"1.99","eligibility":["expired","new"],"internalID":"C1","isStackable":false,"numberOfPeriods":3,"paymentMode":"payAsYouGo","referenceName":"Three cheap months","subscriptionPeriod":"P1M"}]
        """#)
        let json = CatalogJSON.document(groups: [CatalogJSON.group([subscription])])
            .replacingOccurrences(of: #""major":3,"minor":0"#, with: #""major":1,"minor":2"#)
        let catalog = try CatalogJSON.load(json)
        #expect(catalog.formatVersion == Catalog.FormatVersion(major: 1, minor: 2))
        let code = try #require(catalog.product(id: "monthly")?.subscription?.codeOffers.first)
        #expect(code.eligibility == [.new, .expired])
        #expect(code.offer.periodCount == 3)
        #expect(code.offer.paymentMode == .payAsYouGo)
        #expect(code.offer.id == nil)
    }

    @Test func localizationMatchesLocaleThenLanguageThenFirst() {
        let localizations = [
            Localization(locale: "en_US", displayName: "Pellet", description: ""),
            Localization(locale: "es_MX", displayName: "Bolita", description: ""),
            Localization(locale: "es_ES", displayName: "Pienso", description: ""),
        ]
        #expect(localizations.bestMatch(for: "es_ES")?.displayName == "Pienso")
        #expect(localizations.bestMatch(for: "es-es")?.displayName == "Pienso")
        #expect(localizations.bestMatch(for: "es_AR")?.displayName == "Bolita")
        #expect(localizations.bestMatch(for: "de_DE")?.displayName == "Pellet")
        #expect([Localization]().bestMatch(for: "en_US") == nil)
    }
}
