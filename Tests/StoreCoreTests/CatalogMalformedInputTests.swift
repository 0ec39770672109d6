import Foundation
import Testing
@testable import StoreCore

/// A malformed document and the one error it must produce.
struct MalformedCatalogCase: Sendable, CustomTestStringConvertible {
    let name: String
    let json: String
    let path: String
    let message: String

    var testDescription: String { name }
}

@Suite struct CatalogMalformedInputTests {
    static let cases: [MalformedCatalogCase] = [
        MalformedCatalogCase(
            name: "top level is an array", json: "[]", path: "",
            message: "expected an object, found an array"),
        MalformedCatalogCase(
            name: "top level is a string", json: #""products""#, path: "",
            message: "expected an object, found a string"),
        MalformedCatalogCase(
            name: "products is an object", json: #"{"products":{}}"#, path: "products",
            message: "expected an array, found an object"),
        MalformedCatalogCase(
            name: "a product is a string", json: #"{"products":["pellet"]}"#, path: "products[0]",
            message: "expected an object, found a string"),
        MalformedCatalogCase(
            name: "missing productID",
            json: CatalogJSON.document(products: [
                CatalogJSON.product("ok"), #"{"displayPrice":"0.99","type":"Consumable"}"#,
            ]),
            path: "products[1].productID", message: "required key is missing"),
        MalformedCatalogCase(
            name: "null productID",
            json: CatalogJSON.document(products: [#"{"displayPrice":"0.99","productID":null,"type":"Consumable"}"#]),
            path: "products[0].productID", message: "required key is missing"),
        MalformedCatalogCase(
            name: "number where a string is needed",
            json: CatalogJSON.document(products: [#"{"displayPrice":"0.99","productID":42,"type":"Consumable"}"#]),
            path: "products[0].productID", message: "expected a string, found a number"),
        MalformedCatalogCase(
            name: "string where a boolean is needed",
            json: CatalogJSON.document(products: [#"{"displayPrice":"0.99","familyShareable":"yes","productID":"a","type":"Consumable"}"#]),
            path: "products[0].familyShareable", message: "expected a boolean, found a string"),
        MalformedCatalogCase(
            name: "missing product type",
            json: CatalogJSON.document(products: [#"{"displayPrice":"0.99","productID":"a"}"#]),
            path: "products[0].type", message: "required key is missing"),
        MalformedCatalogCase(
            name: "unknown product type",
            json: CatalogJSON.document(products: [CatalogJSON.product("a", type: "Subscription")]),
            path: "products[0].type",
            message: #""Subscription" is not a valid product type (expected Consumable, NonConsumable or NonRenewingSubscription)"#),
        MalformedCatalogCase(
            name: "auto-renewable subscription outside a group",
            json: CatalogJSON.document(nonRenewing: [CatalogJSON.product("a", type: "RecurringSubscription")]),
            path: "nonRenewingSubscriptions[0].type",
            message: #""RecurringSubscription" is not a valid product type (expected Consumable, NonConsumable or NonRenewingSubscription)"#),
        MalformedCatalogCase(
            name: "consumable inside a group",
            json: CatalogJSON.document(groups: [CatalogJSON.group([
                CatalogJSON.subscription("a").replacingOccurrences(of: "RecurringSubscription", with: "Consumable"),
            ])]),
            path: "subscriptionGroups[0].subscriptions[0].type",
            message: #""Consumable" is not a valid product type (expected RecurringSubscription)"#),
        MalformedCatalogCase(
            name: "price with a decimal comma",
            json: CatalogJSON.document(products: [CatalogJSON.product("a", price: "1,99")]),
            path: "products[0].displayPrice", message: #""1,99" is not a decimal price"#),
        MalformedCatalogCase(
            name: "price with a currency symbol",
            json: CatalogJSON.document(products: [CatalogJSON.product("a", price: "$1.99")]),
            path: "products[0].displayPrice", message: #""$1.99" is not a decimal price"#),
        MalformedCatalogCase(
            name: "negative price",
            json: CatalogJSON.document(products: [CatalogJSON.product("a", price: "-1.99")]),
            path: "products[0].displayPrice", message: #""-1.99" is not a decimal price"#),
        MalformedCatalogCase(
            name: "price given as a number",
            json: CatalogJSON.document(products: [#"{"displayPrice":0.99,"productID":"a","type":"Consumable"}"#]),
            path: "products[0].displayPrice", message: "expected a string, found a number"),
        MalformedCatalogCase(
            name: "quarter is not an ISO 8601 period",
            json: CatalogJSON.document(groups: [CatalogJSON.group([
                CatalogJSON.subscription("a"), CatalogJSON.subscription("b"), CatalogJSON.subscription("c", period: "P1Q"),
            ])]),
            path: "subscriptionGroups[0].subscriptions[2].recurringSubscriptionPeriod",
            message: #""P1Q" is not an ISO 8601 period"#),
        MalformedCatalogCase(
            name: "zero-length period",
            json: CatalogJSON.document(groups: [CatalogJSON.group([CatalogJSON.subscription("a", period: "P0M")])]),
            path: "subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod",
            message: #""P0M" is not a subscription period (a positive number of days, weeks, months or years)"#),
        MalformedCatalogCase(
            name: "period of mixed units",
            json: CatalogJSON.document(groups: [CatalogJSON.group([CatalogJSON.subscription("a", period: "P1M2D")])]),
            path: "subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod",
            message: #""P1M2D" is not a subscription period (a positive number of days, weeks, months or years)"#),
        MalformedCatalogCase(
            name: "unknown payment mode",
            json: CatalogJSON.document(groups: [CatalogJSON.group([CatalogJSON.subscription("a", extra:
                #""introductoryOffer":{"internalID":"1","paymentMode":"trial","subscriptionPeriod":"P1W"}"#)])]),
            path: "subscriptionGroups[0].subscriptions[0].introductoryOffer.paymentMode",
            message: #""trial" is not a valid payment mode (expected free, payAsYouGo or payUpFront)"#),
        MalformedCatalogCase(
            name: "paid offer without a price",
            json: CatalogJSON.document(groups: [CatalogJSON.group([CatalogJSON.subscription("a", extra:
                #""adHocOffers":[{"offerID":"o","paymentMode":"payUpFront","subscriptionPeriod":"P1Y"}]"#)])]),
            path: "subscriptionGroups[0].subscriptions[0].adHocOffers[0].displayPrice",
            message: "required key is missing"),
        MalformedCatalogCase(
            name: "fractional number of periods",
            json: CatalogJSON.document(groups: [CatalogJSON.group([CatalogJSON.subscription("a", extra:
                #""introductoryOffer":{"displayPrice":"1.99","numberOfPeriods":1.5,"paymentMode":"payAsYouGo","subscriptionPeriod":"P1M"}"#)])]),
            path: "subscriptionGroups[0].subscriptions[0].introductoryOffer.numberOfPeriods",
            message: "expected an integer, found a number"),
        MalformedCatalogCase(
            name: "zero periods",
            json: CatalogJSON.document(groups: [CatalogJSON.group([CatalogJSON.subscription("a", extra:
                #""introductoryOffer":{"displayPrice":"1.99","numberOfPeriods":0,"paymentMode":"payAsYouGo","subscriptionPeriod":"P1M"}"#)])]),
            path: "subscriptionGroups[0].subscriptions[0].introductoryOffer.numberOfPeriods",
            message: "expected a positive integer, found 0"),
        MalformedCatalogCase(
            name: "unknown offer code eligibility",
            json: CatalogJSON.document(groups: [CatalogJSON.group([CatalogJSON.subscription("a", extra:
                #""codeOffers":[{"eligibility":["new","lapsed"],"isStackable":true,"paymentMode":"free","subscriptionPeriod":"P1M"}]"#)])]),
            path: "subscriptionGroups[0].subscriptions[0].codeOffers[0].eligibility[1]",
            message: #""lapsed" is not a valid offer code eligibility (expected new, existing or expired)"#),
        MalformedCatalogCase(
            name: "unknown billing plan type",
            json: CatalogJSON.document(groups: [CatalogJSON.group([CatalogJSON.subscription("a", extra:
                #""billingPlans":[{"billingPlanType":"WEEKLY","displayPrice":"1.00","isEnabled":true}]"#)])]),
            path: "subscriptionGroups[0].subscriptions[0].billingPlans[0].billingPlanType",
            message: #""WEEKLY" is not a valid billing plan type (expected BILLED_UPFRONT or MONTHLY)"#),
        MalformedCatalogCase(
            name: "duplicate product id across products and a group",
            json: CatalogJSON.document(products: [CatalogJSON.product("pass")], groups: [CatalogJSON.group([CatalogJSON.subscription("pass")])]),
            path: "subscriptionGroups[0].subscriptions[0].productID",
            message: #"duplicate product id "pass" (first at products[0].productID)"#),
        MalformedCatalogCase(
            name: "duplicate product id between products and non-renewing subscriptions",
            json: CatalogJSON.document(products: [CatalogJSON.product("a")],
                                       nonRenewing: [CatalogJSON.product("a", type: "NonRenewingSubscription")]),
            path: "nonRenewingSubscriptions[0].productID",
            message: #"duplicate product id "a" (first at products[0].productID)"#),
        MalformedCatalogCase(
            name: "subscription disagrees with its group",
            json: CatalogJSON.document(groups: [CatalogJSON.group([
                CatalogJSON.subscription("a"), CatalogJSON.subscription("b", groupID: "G2"),
            ], id: "G1")]),
            path: "subscriptionGroups[0].subscriptions[1].subscriptionGroupID",
            message: #""G2" disagrees with its group's id "G1""#),
        MalformedCatalogCase(
            name: "duplicate group id",
            json: CatalogJSON.document(groups: [
                CatalogJSON.group([CatalogJSON.subscription("a")], id: "G1"), CatalogJSON.group([CatalogJSON.subscription("b")], id: "G1"),
            ]),
            path: "subscriptionGroups[1].id",
            message: #"duplicate subscription group id "G1" (first at subscriptionGroups[0].id)"#),
        MalformedCatalogCase(
            name: "level zero",
            json: CatalogJSON.document(groups: [CatalogJSON.group([CatalogJSON.subscription("a", level: 0)])]),
            path: "subscriptionGroups[0].subscriptions[0].groupNumber",
            message: "expected a positive integer, found 0"),
        MalformedCatalogCase(
            name: "unknown time rate",
            json: CatalogJSON.document(settings: #"{"_timeRate":14}"#),
            path: "settings._timeRate", message: "14 is not a known time rate"),
        MalformedCatalogCase(
            name: "boolean time rate",
            json: CatalogJSON.document(settings: #"{"_timeRate":true}"#),
            path: "settings._timeRate", message: "expected an integer, found a boolean"),
        MalformedCatalogCase(
            name: "settings is an array",
            json: CatalogJSON.document(settings: "[]"),
            path: "settings", message: "expected an object, found an array"),
        MalformedCatalogCase(
            name: "offer signing key that is not Base64",
            json: CatalogJSON.document(extra: #""subscriptionOffersKeyPair":{"id":"851B7BE3","privateKey":"not base64!"}"#),
            path: "subscriptionOffersKeyPair.privateKey", message: "is not valid Base64"),
    ]

    @Test(arguments: cases)
    func malformedInputGetsOneErrorWithItsPath(_ testCase: MalformedCatalogCase) {
        let error = #expect(throws: CatalogError.self) { try CatalogJSON.load(testCase.json) }
        let expected = testCase.path.isEmpty
            ? "Products.storekit: \(testCase.message)"
            : "Products.storekit: \(testCase.path): \(testCase.message)"
        #expect(error?.fileName == "Products.storekit")
        #expect(error?.path == testCase.path)
        #expect(error?.description == expected)
    }

    @Test func quarterPeriodReadsAsDocumented() {
        let json = CatalogJSON.document(groups: [CatalogJSON.group([
            CatalogJSON.subscription("a"), CatalogJSON.subscription("b"), CatalogJSON.subscription("c", period: "P1Q"),
        ])])
        let error = #expect(throws: CatalogError.self) { try CatalogJSON.load(json) }
        #expect(error == CatalogError(fileName: "Products.storekit",
                                      path: "subscriptionGroups[0].subscriptions[2].recurringSubscriptionPeriod",
                                      problem: .invalidPeriod("P1Q")))
        #expect(error?.description == #"Products.storekit: subscriptionGroups[0].subscriptions[2].recurringSubscriptionPeriod: "P1Q" is not an ISO 8601 period"#)
    }

    @Test func textThatIsNotJSONIsReportedForTheWholeFile() {
        let error = #expect(throws: CatalogError.self) { try CatalogJSON.load(#"{"products": [ nope"#) }
        #expect(error?.path == "")
        guard case .notJSON(let reason) = error?.problem else {
            Issue.record("expected a JSON problem, got \(String(describing: error))")
            return
        }
        #expect(!reason.isEmpty)
        #expect(error?.description.hasPrefix("Products.storekit: is not valid JSON (") == true)
    }

    @Test func aFileThatCannotBeReadIsReportedByName() {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).storekit")
        let error = #expect(throws: CatalogError.self) { try Catalog(contentsOf: missing) }
        #expect(error?.fileName == missing.lastPathComponent)
        #expect(error?.path == "")
        guard case .unreadableFile = error?.problem else {
            Issue.record("expected an unreadable-file problem, got \(String(describing: error))")
            return
        }
    }

    @Test func quotesInsideValuesAreEscapedInMessages() {
        let problem = CatalogError.Problem.invalidPrice(#"1"9\"#)
        #expect(problem.description == #""1\"9\\" is not a decimal price"#)
    }
}
