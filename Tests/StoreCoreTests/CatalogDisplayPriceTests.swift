import Foundation
import Testing
@testable import StoreCore

@Suite struct CatalogDisplayPriceTests {
    private static let json = CatalogJSON.document(
        products: [CatalogJSON.product("tip", price: "2.49"), CatalogJSON.product("bundle", type: "NonConsumable", price: "600")],
        groups: [CatalogJSON.group([CatalogJSON.subscription("monthly", price: "4.99", extra:
            #""adHocOffers":[{"displayPrice":"1.99","offerID":"winter","paymentMode":"payUpFront","subscriptionPeriod":"P3M"}],"introductoryOffer":{"paymentMode":"free","subscriptionPeriod":"P1W"}"#)])])

    private func price(_ id: String, storefront: String, locale: String) throws -> String {
        let catalog = try CatalogJSON.load(Self.json, localeIdentifier: locale, storefront: storefront)
        return try #require(catalog.product(id: id)).displayPrice
    }

    @Test func unitedStatesPricesAreInDollars() throws {
        #expect(try price("tip", storefront: "USA", locale: "en_US") == "$2.49")
    }

    @Test func spanishPricesAreInEurosWithADecimalComma() throws {
        #expect(try price("tip", storefront: "ESP", locale: "es_ES") == "2,49\u{A0}€")
    }

    @Test func germanPricesAreInEurosWithADecimalComma() throws {
        #expect(try price("tip", storefront: "DEU", locale: "de_DE") == "2,49\u{A0}€")
    }

    @Test func japanesePricesAreWholeYen() throws {
        #expect(try price("bundle", storefront: "JPN", locale: "ja_JP") == "¥600")
    }

    @Test func britishPricesAreInPounds() throws {
        #expect(try price("tip", storefront: "GBR", locale: "en_GB") == "£2.49")
    }

    @Test func storefrontDecidesTheCurrencyAndLocaleTheNotation() throws {
        #expect(try price("tip", storefront: "FRA", locale: "en_US") == "€2.49")
    }

    @Test func offersAreLocalizedToo() throws {
        let catalog = try CatalogJSON.load(Self.json, localeIdentifier: "es_ES", storefront: "ESP")
        let info = try #require(catalog.product(id: "monthly")?.subscription)
        #expect(catalog.product(id: "monthly")?.displayPrice == "4,99\u{A0}€")
        #expect(info.promotionalOffer(id: "winter")?.displayPrice == "1,99\u{A0}€")
        #expect(info.introductoryOffer?.displayPrice == "0,00\u{A0}€")
        #expect(info.introductoryOffer?.price == 0)
    }

    @Test func pricesKeepEveryDecimalDigit() throws {
        let catalog = try CatalogJSON.load(CatalogJSON.document(products: [CatalogJSON.product("precise", price: "0.10")]))
        let product = try #require(catalog.product(id: "precise"))
        #expect(product.price == Decimal(sign: .plus, exponent: -1, significand: 1))
        #expect(product.price * 3 == Decimal(string: "0.3"))
    }

    @Test func fileSettingsChooseTheDefaultLocaleAndStorefront() throws {
        let json = CatalogJSON.document(products: [CatalogJSON.product("tip", price: "2.49")],
                                        settings: #"{"_locale":"de_DE","_storefront":"DEU"}"#)
        let catalog = try CatalogJSON.load(json)
        #expect(catalog.localeIdentifier == "de_DE")
        #expect(catalog.storefront.currencyCode == "EUR")
        #expect(catalog.product(id: "tip")?.displayPrice == "2,49\u{A0}€")
    }

    @Test func storefrontCurrencyFallsBackToTheLocaleThenDollars() {
        #expect(Storefront(countryCode: "ESP", locale: Locale(identifier: "en_US")).currencyCode == "EUR")
        #expect(Storefront(countryCode: "kor", locale: Locale(identifier: "en_US")).currencyCode == "KRW")
        #expect(Storefront(countryCode: "ARG", locale: Locale(identifier: "es_AR")).currencyCode == "USD")
        #expect(Storefront(countryCode: "XYZ", locale: Locale(identifier: "fr_CH")).currencyCode == "CHF")
        #expect(Storefront(countryCode: "XYZ", locale: Locale(identifier: "en")).currencyCode == "USD")
    }

    @Test func storefrontTableCoversTheMainAppStoreCountries() {
        let expected = ["USA": "USD", "ESP": "EUR", "DEU": "EUR", "FRA": "EUR", "GBR": "GBP", "JPN": "JPY",
                        "KOR": "KRW", "CAN": "CAD", "AUS": "AUD", "BRA": "BRL", "CHE": "CHF", "MEX": "MXN",
                        "IND": "INR", "CHN": "CNY", "TUR": "TRY", "SWE": "SEK"]
        for (country, currency) in expected {
            #expect(Storefront.appStoreCurrencyCode(forCountryCode: country) == currency, "\(country)")
        }
        #expect(Storefront.appStoreCurrencyCode(forCountryCode: "ZZZ") == nil)
    }
}
