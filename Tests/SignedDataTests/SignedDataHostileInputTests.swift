import Foundation
import Testing
@testable import SignedData

/// Bytes no App Store ever signs, reaching the verifier before any signature is checked: each
/// ends in a typed error, in Apple's order (format and payload first), never in a trap.
@Suite struct SignedDataHostileInputTests {
    typealias Support = SignedDataTestSupport

    /// An unsigned compact JWS around `payload`, under the shared authority's real chain.
    private func unsigned(_ payload: String) -> String {
        let header = #"{"alg":"ES256","x5c":["# + Support.x5c(Support.authority.certificateChain).map { "\"\($0)\"" }.joined(separator: ",") + "]}"
        return Support.assemble(header: header, payload: payload)
    }

    private func expectMalformedPayload(_ payload: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let verifier = try Support.verifier()
        let error = #expect(throws: VerificationError.self, sourceLocation: sourceLocation) {
            try verifier.verifyAndDecodeTransaction(unsigned(payload))
        }
        guard case .malformedPayload = error else {
            Issue.record("expected malformedPayload, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
    }

    @Test("a quantity too large for 64 bits is a malformed payload before the signature is checked")
    func integerPast64BitsIsMalformed() throws {
        try expectMalformedPayload(#"{"quantity": 9223372036854775808, "bundleId": "com.example.backyardbirds"}"#)
        try expectMalformedPayload(#"{"quantity": 99999999999999999999999999999}"#)
        try expectMalformedPayload(#"{"price": -9223372036854775809}"#)
    }

    @Test("integers of 18 and 19 digits read exactly or are refused, never wrapped")
    func integersAtTheEdgeOfThePlainSubset() throws {
        #expect(PlainJSON(parsing: Data(#"{"a":999999999999999999}"#.utf8)) != nil)
        #expect(PlainJSON(parsing: Data(#"{"a":9223372036854775807}"#.utf8)) == nil)
        let price = try SignedPayloadJSON.decode(JWSTransactionDecodedPayload.self, from: Data(#"{"price":9223372036854775807}"#.utf8)).price
        #expect(price == .max)
    }

    @Test("payloads nested 100,000 deep are refused without exhausting the stack")
    func deepNestingIsRefused() throws {
        for open in ["[", "{\"a\":"] {
            let deep = String(repeating: open, count: 100_000)
            try expectMalformedPayload(#"{"transactionId": "#  + deep)
            #expect(PlainJSON(parsing: Data(deep.utf8)) == nil)
        }
    }

    @Test("a duplicate key reads as its first value; invalid UTF-8, a lone surrogate and truncated text are decoding errors")
    func oddTextIsHandled() throws {
        #expect(PlainJSON(parsing: Data(#"{"a":1,"a":2}"#.utf8)) == nil)
        // Foundation's decoder keeps the first of two equal keys (Python's json, under Apple's
        // library, keeps the last); only a payload signed with a repeated key could tell.
        let repeated = try SignedPayloadJSON.decode(JWSTransactionDecodedPayload.self, from: Data(#"{"quantity":1,"quantity":2}"#.utf8))
        #expect(repeated.quantity == 1)
        try expectMalformedPayload("{\"transactionId\": \"\u{FFFD}")
        let invalidUTF8 = Data(#"{"transactionId":"#.utf8) + Data([0x22, 0xFF, 0xFE, 0x22, 0x7D])
        #expect(PlainJSON(parsing: invalidUTF8) == nil)
        #expect(throws: DecodingError.self) { try SignedPayloadJSON.decode(JWSTransactionDecodedPayload.self, from: invalidUTF8) }
        #expect(throws: DecodingError.self) {
            try SignedPayloadJSON.decode(JWSTransactionDecodedPayload.self, from: Data(#"{"transactionId":"\ud800"}"#.utf8))
        }
        for cut in [1, 10, 40] {
            try expectMalformedPayload(String(#"{"transactionId":"2000000111111111","quantity":1}"#.prefix(cut)))
        }
    }

    @Test("a JWS of arbitrary bytes, empty parts or a non-base64 certificate ends in a typed error")
    func brokenJWSIsTyped() throws {
        let verifier = try Support.verifier()
        for text in ["", ".", "..", "...", "a.b.c", "\u{0}.\u{0}.\u{0}", String(repeating: ".", count: 10_000)] {
            #expect(throws: VerificationError.self) { try verifier.verifyAndDecodeNotification(text) }
        }
        let badCertificate = Support.assemble(header: #"{"alg":"ES256","x5c":["!!!","AAAA","AAAA"]}"#,
                                              payload: #"{"signedDate":1750000000000}"#)
        #expect(throws: VerificationError.invalidCertificate(index: 0, reason: "not standard base64")) {
            try verifier.verifyAndDecodeTransaction(badCertificate)
        }
        let garbageCertificate = Support.assemble(header: #"{"alg":"ES256","x5c":["AAAA","AAAA","AAAA"]}"#,
                                                  payload: #"{"signedDate":1750000000000}"#)
        let error = #expect(throws: VerificationError.self) { try verifier.verifyAndDecodeTransaction(garbageCertificate) }
        guard case .invalidCertificate(index: 0, _) = error else {
            Issue.record("expected invalidCertificate at index 0, got \(String(describing: error))")
            return
        }
    }
}
