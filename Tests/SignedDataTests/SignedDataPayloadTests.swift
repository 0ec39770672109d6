import Foundation
import Testing
@testable import SignedData

/// Decoding and encoding of App Store payloads, with JSON shaped as Apple's server library
/// tests shape it (`tests/resources/models/*.json`).
@Suite struct SignedDataPayloadTests {
    static let appleTransactionJSON = """
        {
          "transactionId":"23456",
          "originalTransactionId":"12345",
          "webOrderLineItemId":"34343",
          "bundleId":"com.example",
          "productId":"com.example.product",
          "subscriptionGroupIdentifier":"55555",
          "purchaseDate":1698148900000,
          "originalPurchaseDate":1698148800000,
          "expiresDate":1698149000000,
          "quantity":1,
          "type":"Auto-Renewable Subscription",
          "appAccountToken": "7e3fb20b-4cdb-47cc-936d-99d65f608138",
          "inAppOwnershipType":"PURCHASED",
          "signedDate":1698148900000,
          "revocationReason": 1,
          "revocationDate": 1698148950000,
          "isUpgraded": true,
          "offerType":1,
          "offerIdentifier": "abc.123",
          "environment":"LocalTesting",
          "transactionReason":"PURCHASE",
          "storefront":"USA",
          "storefrontId":"143441",
          "price": 10990,
          "currency": "USD",
          "offerDiscountType": "PAY_AS_YOU_GO",
          "appTransactionId": "71134",
          "offerPeriod": "P1Y",
          "advancedCommerceInfo": {
            "descriptors": { "description": "Premium Plan", "displayName": "Premium" },
            "estimatedTax": 1500,
            "period": "P1M"
          },
          "billingPlanType": "MONTHLY",
          "commitmentInfo": { "billingPeriodNumber": 3, "commitmentPrice": 119880 }
        }
        """

    static let appleRenewalInfoJSON = """
        {
          "expirationIntent": 1,
          "originalTransactionId": "12345",
          "autoRenewProductId": "com.example.product.2",
          "productId": "com.example.product",
          "autoRenewStatus": 1,
          "isInBillingRetryPeriod": true,
          "priceIncreaseStatus": 0,
          "gracePeriodExpiresDate": 1698148900000,
          "offerType": 2,
          "offerIdentifier": "abc.123",
          "signedDate": 1698148800000,
          "environment": "LocalTesting",
          "recentSubscriptionStartDate": 1698148800000,
          "renewalDate": 1698148850000,
          "renewalPrice": 9990,
          "currency": "USD",
          "offerDiscountType": "PAY_AS_YOU_GO",
          "eligibleWinBackOfferIds": ["eligible1", "eligible2"],
          "appTransactionId": "71134",
          "offerPeriod": "P1Y",
          "appAccountToken": "7e3fb20b-4cdb-47cc-936d-99d65f608138"
        }
        """

    static let appleNotificationJSON = """
        {
          "notificationType": "SUBSCRIBED",
          "subtype": "INITIAL_BUY",
          "notificationUUID": "002e14d5-51f5-4503-b5a8-c3a1af68eb20",
          "data": {
            "environment": "LocalTesting",
            "appAppleId": 41234,
            "bundleId": "com.example",
            "bundleVersion": "1.2.3",
            "signedTransactionInfo": "signed_transaction_info_value",
            "signedRenewalInfo": "signed_renewal_info_value",
            "status": 1,
            "consumptionRequestReason": "UNINTENDED_PURCHASE"
          },
          "version": "2.0",
          "signedDate": 1698148900000
        }
        """

    static let appleSummaryNotificationJSON = """
        {
          "notificationType": "RENEWAL_EXTENSION",
          "subtype": "SUMMARY",
          "notificationUUID": "002e14d5-51f5-4503-b5a8-c3a1af68eb20",
          "version": "2.0",
          "signedDate": 1698148900000,
          "summary": {
            "environment": "LocalTesting",
            "appAppleId": 41234,
            "bundleId": "com.example",
            "productId": "com.example.product",
            "requestIdentifier": "efb27071-45a4-4aca-9854-2a1e9146f265",
            "storefrontCountryCodes": ["CAN", "USA", "MEX"],
            "succeededCount": 5,
            "failedCount": 2
          }
        }
        """

    static let appleExternalPurchaseTokenNotificationJSON = """
        {
          "notificationType": "EXTERNAL_PURCHASE_TOKEN",
          "subtype": "UNREPORTED",
          "notificationUUID": "002e14d5-51f5-4503-b5a8-c3a1af68eb20",
          "version": "2.0",
          "signedDate": 1698148900000,
          "externalPurchaseToken": {
            "externalPurchaseId": "SANDBOX_b2158121-7af9-49d4-9561-1f588205523e",
            "tokenCreationDate": 1698148950000,
            "appAppleId": 55555,
            "bundleId": "com.example",
            "tokenType": "ACQUISITION"
          }
        }
        """

    func decode<Payload: Decodable>(_ type: Payload.Type, _ json: String) throws -> Payload {
        try SignedPayloadJSON.makeDecoder().decode(type, from: Data(json.utf8))
    }

    @Test func appleShapedTransactionDecodesEveryField() throws {
        let transaction = try decode(JWSTransactionDecodedPayload.self, Self.appleTransactionJSON)
        #expect(transaction.transactionId == "23456")
        #expect(transaction.originalTransactionId == "12345")
        #expect(transaction.webOrderLineItemId == "34343")
        #expect(transaction.bundleId == "com.example")
        #expect(transaction.productId == "com.example.product")
        #expect(transaction.subscriptionGroupIdentifier == "55555")
        #expect(transaction.purchaseDate == Date(millisecondsSince1970: 1_698_148_900_000))
        #expect(transaction.originalPurchaseDate?.millisecondsSince1970 == 1_698_148_800_000)
        #expect(transaction.expiresDate?.millisecondsSince1970 == 1_698_149_000_000)
        #expect(transaction.quantity == 1)
        #expect(transaction.type == .autoRenewableSubscription)
        #expect(transaction.type?.rawValue == "Auto-Renewable Subscription")
        #expect(transaction.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(transaction.inAppOwnershipType == .purchased)
        #expect(transaction.signedDate?.millisecondsSince1970 == 1_698_148_900_000)
        #expect(transaction.revocationReason == .refundedDueToIssue)
        #expect(transaction.revocationDate?.millisecondsSince1970 == 1_698_148_950_000)
        #expect(transaction.isUpgraded == true)
        #expect(transaction.offerType == .introductoryOffer)
        #expect(transaction.offerIdentifier == "abc.123")
        #expect(transaction.environment == .localTesting)
        #expect(transaction.transactionReason == .purchase)
        #expect(transaction.storefront == "USA")
        #expect(transaction.storefrontId == "143441")
        #expect(transaction.price == 10990)
        #expect(transaction.currency == "USD")
        #expect(transaction.offerDiscountType == .payAsYouGo)
        #expect(transaction.appTransactionId == "71134")
        #expect(transaction.offerPeriod == "P1Y")
        #expect(transaction.billingPlanType == "MONTHLY")
    }

    @Test func appleShapedRenewalInfoDecodesEveryField() throws {
        let renewal = try decode(JWSRenewalInfoDecodedPayload.self, Self.appleRenewalInfoJSON)
        #expect(renewal.expirationIntent == .customerCancelled)
        #expect(renewal.originalTransactionId == "12345")
        #expect(renewal.autoRenewProductId == "com.example.product.2")
        #expect(renewal.productId == "com.example.product")
        #expect(renewal.autoRenewStatus == .on)
        #expect(renewal.isInBillingRetryPeriod == true)
        #expect(renewal.priceIncreaseStatus == .customerHasNotResponded)
        #expect(renewal.gracePeriodExpiresDate?.millisecondsSince1970 == 1_698_148_900_000)
        #expect(renewal.offerType == .promotionalOffer)
        #expect(renewal.offerIdentifier == "abc.123")
        #expect(renewal.signedDate?.millisecondsSince1970 == 1_698_148_800_000)
        #expect(renewal.environment == .localTesting)
        #expect(renewal.recentSubscriptionStartDate?.millisecondsSince1970 == 1_698_148_800_000)
        #expect(renewal.renewalDate?.millisecondsSince1970 == 1_698_148_850_000)
        #expect(renewal.renewalPrice == 9990)
        #expect(renewal.currency == "USD")
        #expect(renewal.offerDiscountType == .payAsYouGo)
        #expect(renewal.eligibleWinBackOfferIds == ["eligible1", "eligible2"])
        #expect(renewal.appTransactionId == "71134")
        #expect(renewal.offerPeriod == "P1Y")
        #expect(renewal.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
    }

    @Test func appleShapedNotificationsDecodeEachBody() throws {
        let notification = try decode(ResponseBodyV2DecodedPayload.self, Self.appleNotificationJSON)
        #expect(notification.notificationType == .subscribed)
        #expect(notification.subtype == .initialBuy)
        #expect(notification.notificationUUID == "002e14d5-51f5-4503-b5a8-c3a1af68eb20")
        #expect(notification.version == "2.0")
        #expect(notification.signedDate?.millisecondsSince1970 == 1_698_148_900_000)
        #expect(notification.data == NotificationData(
            environment: .localTesting, appAppleId: 41234, bundleId: "com.example", bundleVersion: "1.2.3",
            signedTransactionInfo: "signed_transaction_info_value",
            signedRenewalInfo: "signed_renewal_info_value", status: .active,
            consumptionRequestReason: .unintendedPurchase))

        let summary = try decode(ResponseBodyV2DecodedPayload.self, Self.appleSummaryNotificationJSON)
        #expect(summary.notificationType == .renewalExtension)
        #expect(summary.subtype == .summary)
        #expect(summary.data == nil)
        #expect(summary.summary == NotificationSummary(
            environment: .localTesting, appAppleId: 41234, bundleId: "com.example",
            productId: "com.example.product", requestIdentifier: "efb27071-45a4-4aca-9854-2a1e9146f265",
            storefrontCountryCodes: ["CAN", "USA", "MEX"], succeededCount: 5, failedCount: 2))

        let token = try decode(ResponseBodyV2DecodedPayload.self, Self.appleExternalPurchaseTokenNotificationJSON)
        #expect(token.notificationType == .externalPurchaseToken)
        #expect(token.subtype == .unreported)
        #expect(token.externalPurchaseToken?.tokenCreationDate?.millisecondsSince1970 == 1_698_148_950_000)
        #expect(token.externalPurchaseToken?.appAppleId == 55555)
        #expect(token.externalPurchaseToken?.tokenType == "ACQUISITION")
        #expect(token.externalPurchaseToken?.environment == .sandbox)
        #expect(ExternalPurchaseToken(externalPurchaseId: "b2158121").environment == .production)
    }

    @Test func unknownEnumerationValuesSurviveARoundTrip() throws {
        let json = """
            {"type":"Bundle Subscription","offerType":9,"environment":"Staging","inAppOwnershipType":"LENT",
             "transactionReason":"GIFT","offerDiscountType":"BUY_ONE_GET_ONE","revocationReason":7,
             "revocationType":"REFUND_PARTIAL"}
            """
        let transaction = try decode(JWSTransactionDecodedPayload.self, json)
        #expect(transaction.type?.rawValue == "Bundle Subscription")
        #expect(transaction.type?.isKnown == false)
        #expect(transaction.offerType == OfferType(rawValue: 9))
        #expect(transaction.environment == AppStoreEnvironment(rawValue: "Staging"))
        #expect(transaction.inAppOwnershipType?.rawValue == "LENT")
        #expect(transaction.transactionReason?.rawValue == "GIFT")
        #expect(transaction.offerDiscountType?.rawValue == "BUY_ONE_GET_ONE")
        #expect(transaction.revocationReason?.rawValue == 7)
        #expect(transaction.revocationType?.rawValue == "REFUND_PARTIAL")

        let encoded = try SignedPayloadJSON.makeEncoder().encode(transaction)
        #expect(try decode(JWSTransactionDecodedPayload.self, String(decoding: encoded, as: UTF8.self)) == transaction)

        let notification = try decode(
            ResponseBodyV2DecodedPayload.self,
            #"{"notificationType":"SOMETHING_NEW","subtype":"BRAND_NEW","data":{"status":42}}"#)
        #expect(notification.notificationType?.rawValue == "SOMETHING_NEW")
        #expect(notification.subtype?.rawValue == "BRAND_NEW")
        #expect(notification.data?.status?.rawValue == 42)
        #expect(notification.data?.status?.isKnown == false)
    }

    @Test func enumerationsSpellValuesAsApple() {
        #expect(AppStoreEnvironment.knownValues.map(\.rawValue) == ["Sandbox", "Production", "Xcode", "LocalTesting"])
        #expect(TransactionProductType.knownValues.map(\.rawValue) == [
            "Auto-Renewable Subscription", "Non-Consumable", "Consumable", "Non-Renewing Subscription",
        ])
        #expect(OfferType.knownValues.map(\.rawValue) == [1, 2, 3, 4])
        #expect(AutoRenewableSubscriptionStatus.knownValues.map(\.rawValue) == [1, 2, 3, 4, 5])
        #expect(ExpirationIntent.knownValues.map(\.rawValue) == [1, 2, 3, 4, 5])
        #expect(RevocationReason.knownValues.map(\.rawValue) == [0, 1])
        #expect(NotificationTypeV2.knownValues.count == 23)
        #expect(NotificationTypeV2.didChangeRenewalStatus.rawValue == "DID_CHANGE_RENEWAL_STATUS")
        #expect(NotificationTypeV2.oneTimeCharge.rawValue == "ONE_TIME_CHARGE")
        #expect(NotificationSubtype.knownValues.count == 17)
        #expect(NotificationSubtype.billingRecovery.rawValue == "BILLING_RECOVERY")
        #expect(AppStoreEnvironment.sandbox.isKnown)
        #expect(AppStoreEnvironment.sandbox.description == "Sandbox")
    }

    @Test func datesEncodeAsWholeMilliseconds() throws {
        let transaction = JWSTransactionDecodedPayload(
            transactionId: "1", purchaseDate: Date(timeIntervalSince1970: 1_698_148_900.123_4),
            signedDate: Date(millisecondsSince1970: 1_698_148_900_000))
        let json = String(decoding: try SignedPayloadJSON.makeEncoder().encode(transaction), as: UTF8.self)
        #expect(json == #"{"purchaseDate":1698148900123,"signedDate":1698148900000,"transactionId":"1"}"#)
    }

    @Test func fractionalMillisecondsFromXcodeDecode() throws {
        let renewal = try decode(JWSRenewalInfoDecodedPayload.self, #"{"signedDate":1697679936049.7297}"#)
        #expect(renewal.signedDate?.millisecondsSince1970 == 1_697_679_936_049)
    }

    @Test("milliseconds too large for 64 bits are refused, not trapped on")
    func millisecondsOutside64BitsAreRefused() {
        for milliseconds in ["1e300", "-1e300", "9223372036854775808", "1e19"] {
            #expect(throws: DecodingError.self) {
                try decode(JWSRenewalInfoDecodedPayload.self, #"{"signedDate":\#(milliseconds)}"#)
            }
        }
    }

    @Test func mistypedFieldsFailToDecode() {
        #expect(throws: DecodingError.self) {
            try decode(JWSTransactionDecodedPayload.self, #"{"signedDate":"yesterday"}"#)
        }
        #expect(throws: DecodingError.self) {
            try decode(JWSTransactionDecodedPayload.self, #"{"price":"abc"}"#)
        }
        #expect(throws: DecodingError.self) {
            try decode(JWSRenewalInfoDecodedPayload.self, #"{"autoRenewStatus":"ON"}"#)
        }
    }
}
