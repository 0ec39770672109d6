import Foundation
import Testing
@testable import SignedData

/// The plain-JSON road of ``SignedPayloadJSON/decode(_:from:)``: what it takes, what it leaves
/// to `JSONDecoder`, and that both roads always give the same value or the same error.
@Suite struct SignedDataPlainJSONTests {
    typealias Support = SignedDataTestSupport
    typealias Payloads = SignedDataPayloadTests

    /// The value or error `JSONDecoder` gives, as comparable text.
    func foundationOutcome<Value: Decodable>(_ type: Value.Type, _ json: String) -> Result<Value, DecodingFailureText> {
        Result { try SignedPayloadJSON.decoder.decode(type, from: Data(json.utf8)) }.mapError(DecodingFailureText.init)
    }

    /// The value or error ``SignedPayloadJSON/decode(_:from:)`` gives, as comparable text.
    func outcome<Value: Decodable>(_ type: Value.Type, _ json: String) -> Result<Value, DecodingFailureText> {
        Result { try SignedPayloadJSON.decode(type, from: Data(json.utf8)) }.mapError(DecodingFailureText.init)
    }

    /// The value the plain road alone gives, or nil when it parses or decodes nothing.
    func plainValue<Value: Decodable>(_ type: Value.Type, _ json: String) -> Value? {
        PlainJSON(parsing: Data(json.utf8)).flatMap { PlainJSONDecoder.decode(type, from: $0) }
    }

    struct DecodingFailureText: Error, Equatable {
        let text: String
        init(_ error: any Error) { text = DecodingFailure.summary(of: error) }
    }

    @Test func payloadsAsStoreRulesAndAppleWriteThemTakeThePlainRoadToTheSameValue() throws {
        let encoder = SignedPayloadJSON.makeEncoder()
        let token = ResponseBodyV2DecodedPayload(
            notificationType: .externalPurchaseToken, subtype: .unreported, signedDate: Support.signedDate,
            externalPurchaseToken: ExternalPurchaseToken(
                externalPurchaseId: "SANDBOX_b2158121", tokenCreationDate: Support.signedDate,
                appAppleId: Support.appAppleId, bundleId: Support.bundleId))
        let summary = ResponseBodyV2DecodedPayload(
            notificationType: .renewalExtension, subtype: .summary, signedDate: Support.signedDate,
            summary: NotificationSummary(
                environment: .sandbox, appAppleId: Support.appAppleId, bundleId: Support.bundleId,
                storefrontCountryCodes: ["USA", "ESP"], succeededCount: 5, failedCount: 0))
        let texts: [(any SignedPayload.Type, String)] = [
            (JWSTransactionDecodedPayload.self, String(decoding: try encoder.encode(Support.transaction()), as: UTF8.self)),
            (JWSRenewalInfoDecodedPayload.self, String(decoding: try encoder.encode(Support.renewalInfo()), as: UTF8.self)),
            (ResponseBodyV2DecodedPayload.self, String(decoding: try encoder.encode(Support.notification()), as: UTF8.self)),
            (ResponseBodyV2DecodedPayload.self, String(decoding: try encoder.encode(token), as: UTF8.self)),
            (ResponseBodyV2DecodedPayload.self, String(decoding: try encoder.encode(summary), as: UTF8.self)),
            (JWSTransactionDecodedPayload.self, Payloads.appleTransactionJSON),
            (JWSRenewalInfoDecodedPayload.self, Payloads.appleRenewalInfoJSON),
            (ResponseBodyV2DecodedPayload.self, Payloads.appleNotificationJSON),
            (ResponseBodyV2DecodedPayload.self, Payloads.appleSummaryNotificationJSON),
            (ResponseBodyV2DecodedPayload.self, Payloads.appleExternalPurchaseTokenNotificationJSON),
        ]
        for (type, json) in texts {
            try expectPlainRoad(type, json)
        }
    }

    func expectPlainRoad<Payload: SignedPayload>(_ type: Payload.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let plain = try #require(plainValue(type, json), "the plain road declined \(json)", sourceLocation: sourceLocation)
        #expect(plain == (try SignedPayloadJSON.decoder.decode(type, from: Data(json.utf8))), sourceLocation: sourceLocation)
    }

    @Test func textOutsideThePlainSubsetIsLeftToJSONDecoder() {
        let texts = [
            #"{"productId":"caf\u00e9"}"#,
            "{\"productId\":\"caf\u{E9}\"}",
            #"{"productId":"a\"b"}"#,
            #"{"signedDate":1697679936049.7297}"#,
            #"{"price":1e3}"#,
            #"{"price":1E3}"#,
            #"{"price":-1}"#,
            #"{"price":-0}"#,
            #"{"price":01}"#,
            #"{"price":1234567890123456789}"#,
            #"{"price":1,"price":2}"#,
            #"{"price":1} x"#,
            "\u{FEFF}{\"price\":1}",
            "{\"productId\":\"tab\there\"}",
            #"{"price":1,}"#,
            #"{"price":[1,]}"#,
            #"{"price" 1}"#,
            #"{"productId":"open}"#,
            #"{"isUpgraded":tru}"#,
            #"{"isUpgraded":nul}"#,
            "",
            "   ",
            #"{"x":"# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}",
        ]
        for json in texts {
            #expect(PlainJSON(parsing: Data(json.utf8)) == nil, "parsed \(json)")
            #expect(outcome(JWSTransactionDecodedPayload.self, json) == foundationOutcome(JWSTransactionDecodedPayload.self, json), "\(json)")
        }
        #expect((try? outcome(JWSTransactionDecodedPayload.self, #"{"price":-1}"#).get())?.price == -1)
        #expect((try? outcome(JWSTransactionDecodedPayload.self, #"{"productId":"caf\u00e9"}"#).get())?.productId == "café")
    }

    @Test func valuesThePlainDecoderDeclinesAreLeftToJSONDecoder() {
        let texts = [
            #"{"price":"4990"}"#,
            #"{"quantity":3000000000}"#,
            #"{"isUpgraded":1}"#,
            #"{"type":5}"#,
            #"{"signedDate":"yesterday"}"#,
            #"{"signedDate":true}"#,
            #"{"environment":["Sandbox"]}"#,
            #"[{"price":1}]"#,
            #""transaction""#,
        ]
        for json in texts {
            #expect(PlainJSON(parsing: Data(json.utf8)) != nil, "did not parse \(json)")
            #expect(plainValue(JWSTransactionDecodedPayload.self, json) == nil, "decoded \(json)")
            let result = outcome(JWSTransactionDecodedPayload.self, json)
            #expect(result == foundationOutcome(JWSTransactionDecodedPayload.self, json), "\(json)")
            guard case .failure = result else {
                Issue.record("decoded \(json)")
                continue
            }
        }
        let notification = #"{"notificationType":"TEST","data":"none"}"#
        #expect(plainValue(ResponseBodyV2DecodedPayload.self, notification) == nil)
        #expect(outcome(ResponseBodyV2DecodedPayload.self, notification) == foundationOutcome(ResponseBodyV2DecodedPayload.self, notification))
    }

    @Test func nullsAndMissingKeysReadAsAbsentOnBothRoads() throws {
        let json = #"{ "price" : null , "quantity":2, "bundleId":null,"revocationDate" :null }"#
        let plain = try #require(plainValue(JWSTransactionDecodedPayload.self, json))
        #expect(plain == JWSTransactionDecodedPayload(quantity: 2))
        #expect(outcome(JWSTransactionDecodedPayload.self, json) == foundationOutcome(JWSTransactionDecodedPayload.self, json))
    }

    /// Numbers, dates, arrays and dictionaries of every shape the plain road handles.
    struct Shapes: Decodable, Equatable {
        var small: Int8
        var wide: UInt64
        var real: Double
        var date: Date
        var dates: [Date]
        var names: [String]
        var counts: [String: Int]
        var nested: [[Bool?]]
        var empty: [String: [Int]]
    }

    @Test func numbersDatesArraysAndDictionariesDecodeAsJSONDecoderDecodesThem() throws {
        let json = """
            {"small":127,"wide":999999999999999999,"real":9007199254740993,"date":0,
             "dates":[1750000000000,999999999999999999],"names":["a","", "b c"],
             "counts":{"x":1,"y":2},"nested":[[true,null],[],[false]],"empty":{}}
            """
        let plain = try #require(plainValue(Shapes.self, json))
        let foundation = try SignedPayloadJSON.decoder.decode(Shapes.self, from: Data(json.utf8))
        #expect(plain == foundation)
        #expect(plain.real == 9_007_199_254_740_992)
        #expect(plain.date == Date(timeIntervalSince1970: 0))

        let tooSmall = json.replacingOccurrences(of: "\"small\":127", with: "\"small\":128")
        #expect(plainValue(Shapes.self, tooSmall) == nil)
        #expect(outcome(Shapes.self, tooSmall) == foundationOutcome(Shapes.self, tooSmall))
    }

    /// A type that swallows a failed field, so a declined field would go unnoticed if the
    /// plain road kept the partial result.
    struct Forgiving: Decodable, Equatable {
        var ratio: Float?
        var link: URL?

        enum CodingKeys: String, CodingKey { case ratio, link }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            ratio = try? container.decode(Float.self, forKey: .ratio)
            link = try? container.decode(URL.self, forKey: .link)
        }
    }

    @Test func aDeclineTheTypeSwallowsStillSendsTheTextToJSONDecoder() throws {
        let json = #"{"ratio":2,"link":"https://example.com/a"}"#
        #expect(PlainJSON(parsing: Data(json.utf8)) != nil)
        #expect(plainValue(Forgiving.self, json) == nil)
        let decoded = try SignedPayloadJSON.decode(Forgiving.self, from: Data(json.utf8))
        #expect(decoded.ratio == 2)
        #expect(decoded.link == URL(string: "https://example.com/a"))
    }

    @Test func aSignedPayloadVerifiesTheSameOnBothRoads() throws {
        let verifier = try Support.verifier()
        let plain = try Support.authority.sign(Support.transaction())
        let escaped = try Support.sign(
            ["productId": "caf\u{E9}", "bundleId": Support.bundleId, "environment": "Sandbox"],
            header: JWSDecodedHeader(alg: "ES256", x5c: Support.x5c(Support.authority.certificateChain)))
        #expect(try verifier.verifyAndDecodeTransaction(plain) == Support.transaction())
        #expect(try verifier.verifyAndDecodeTransaction(escaped).productId == "caf\u{E9}")
    }
}
