import Foundation
import Testing
@testable import SignedData

/// Compact JWS parsing and signing, base64url, and X.509 certificate reading.
@Suite struct SignedDataJWSTests {
    typealias Support = SignedDataTestSupport

    @Test func signedPayloadsParseBackToTheSameHeaderAndPayload() throws {
        let transaction = Support.transaction()
        let jws = try CompactJWS(parsing: Support.authority.sign(transaction))
        #expect(jws.header == JWSDecodedHeader(alg: "ES256", x5c: Support.x5c(Support.authority.certificateChain)))
        #expect(try jws.decodePayload(as: JWSTransactionDecodedPayload.self) == transaction)
        #expect(jws.signature.count == 64)
        let parts = jws.compactSerialization.split(separator: ".")
        let segments = try JWSSegments(jws.compactSerialization)
        #expect([segments.header, segments.payload, segments.signature] == parts)
        #expect(segments.signingInput == "\(parts[0]).\(parts[1])")
    }

    @Test func theHeaderCarriesOnlyTheAlgorithmAndTheChainInStandardBase64() throws {
        let jws = try Support.authority.sign(Support.renewalInfo())
        let header = Base64URL.decode(jws.split(separator: ".")[0])!
        let json = try JSONSerialization.jsonObject(with: header) as! [String: Any]
        #expect(Set(json.keys) == ["alg", "x5c"])
        let x5c = json["x5c"] as! [String]
        #expect(x5c.count == 3)
        #expect(try x5c.map { try X509Certificate(derRepresentation: Data(base64Encoded: $0)!) } == Support.authority.certificateChain)
    }

    @Test func thePayloadIsJSONWithIntegerMillisecondDates() throws {
        let jws = try Support.authority.sign(Support.transaction())
        let payload = String(decoding: Base64URL.decode(jws.split(separator: ".")[1])!, as: UTF8.self)
        #expect(payload.contains(#""signedDate":1750000000000"#))
        #expect(payload.contains(#""type":"Auto-Renewable Subscription""#))
        #expect(!payload.contains("\\/"))
    }

    @Test func rejectsMalformedCompactSerializations() {
        #expect(throws: JWSFormatError.wrongPartCount(2)) { try CompactJWS(parsing: "e30.e30") }
        #expect(throws: JWSFormatError.wrongPartCount(4)) { try CompactJWS(parsing: "e30.e30.e30.e30") }
        #expect(throws: JWSFormatError.invalidBase64URL(.header)) { try CompactJWS(parsing: "e30=.e30.") }
        #expect(throws: JWSFormatError.invalidBase64URL(.payload)) { try CompactJWS(parsing: "e30.e 30.") }
        #expect(throws: JWSFormatError.invalidBase64URL(.signature)) { try CompactJWS(parsing: "e30.e30.a") }
        #expect(throws: JWSFormatError.self) { try CompactJWS(parsing: "bnVsbA.e30.") }
        #expect(JWSFormatError.wrongPartCount(2).description == "a compact JWS has 3 parts separated by '.', not 2")
    }

    @Test func base64URLDecodesWhatFoundationDecodesAtEveryLength() {
        for length in 0..<70 {
            let data = Data((0..<length).map { _ in UInt8.random(in: 0...255) })
            let standard = data.base64EncodedString()
            let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.decode(Substring(url)) == data)
            for position in url.indices {
                for stray in ["=", "+", "/", ".", " ", "\u{e9}"] {
                    var broken = url
                    broken.replaceSubrange(position...position, with: stray)
                    #expect(Base64URL.decode(Substring(broken)) == nil)
                }
            }
        }
    }

    @Test func jwsSegmentsLocateThePartsWithoutDecodingThem() throws {
        let segments = try JWSSegments("aGVhZA.cGF5bG9hZA.c2ln")
        #expect(segments.header == "aGVhZA")
        #expect(segments.payload == "cGF5bG9hZA")
        #expect(segments.signature == "c2ln")
        #expect(segments.signingInput == "aGVhZA.cGF5bG9hZA")
        let empty = try JWSSegments("..")
        #expect([empty.header, empty.payload, empty.signature, empty.signingInput] == ["", "", "", "."])
        for (text, count) in [("", 1), ("a", 1), ("a.b", 2), ("a.b.c.d", 4), ("....", 5)] {
            #expect(throws: JWSFormatError.wrongPartCount(count)) { try JWSSegments(text) }
        }
    }

    @Test func base64URLUsesTheURLAlphabetWithoutPadding() {
        let bytes = Data([0xFB, 0xFF, 0xBF, 0x00, 0x01])
        #expect(Base64URL.encode(bytes) == "-_-_AAE")
        #expect(Base64URL.decode("-_-_AAE") == bytes)
        #expect(Base64URL.decode("") == Data())
        #expect(Base64URL.decode("+/+/AAE") == nil)
        #expect(Base64URL.decode("-_-_AAE=") == nil)
        #expect(Base64URL.decode("abcde") == nil)
        #expect(Base64URL.decode("YWJj\u{e9}") == nil)
        for length in 0..<10 {
            let data = Data((0..<length).map { UInt8($0 * 37 & 0xFF) })
            #expect(Base64URL.decode(Substring(Base64URL.encode(data))) == data)
        }
    }

    @Test func readsCertificatesFromPEMAndDER() throws {
        let root = Support.authority.rootCertificate
        #expect(try X509Certificate(pemRepresentation: root.pemRepresentation) == root)
        #expect(try X509Certificate(derRepresentation: root.derRepresentation) == root)
        let bundle = Support.authority.certificateChain.map(\.pemRepresentation).joined()
        #expect(try X509Certificate.certificates(pemRepresentation: bundle) == Support.authority.certificateChain)
        #expect(root.subject == "O=StoreRules, CN=StoreRules Local Root CA")
        #expect(Support.authority.leafCertificate.hasExtension(oid: CertificateRole.leaf.markerExtensionOID))
        #expect(!root.hasExtension(oid: CertificateRole.leaf.markerExtensionOID))
        #expect(!root.hasExtension(oid: "not an oid"))
        #expect(root.notValidBefore < Support.signedDate && Support.signedDate < root.notValidAfter)
    }

    @Test func rejectsBytesAndTextThatAreNotCertificates() {
        let der = Support.authority.rootCertificate.derRepresentation
        #expect(throws: CertificateError.self) { try X509Certificate(derRepresentation: Data()) }
        #expect(throws: CertificateError.self) { try X509Certificate(derRepresentation: der + [0]) }
        #expect(throws: CertificateError.self) { try X509Certificate(derRepresentation: der.prefix(der.count - 1)) }
        #expect(throws: CertificateError.noCertificateInPEM) { try X509Certificate(pemRepresentation: "hello") }
        let truncated = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
        #expect(throws: CertificateError.self) { try X509Certificate(pemRepresentation: truncated) }
        #expect((try? X509Certificate(pemRepresentation: truncated)) == nil)
    }
}
