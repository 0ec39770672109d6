import Foundation
import Testing
@testable import SignedData

/// ES256 signatures: OpenSSL's DER form, JOSE's raw `r‖s` form, and the conversion between them.
@Suite struct SignedDataSignatureTests {
    /// `SEQUENCE { INTEGER 1, INTEGER 2 }`: the smallest components, which the raw form pads.
    static let smallDER = Data([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02])
    static let smallRaw = Data(repeating: 0, count: 31) + [1] + Data(repeating: 0, count: 31) + [2]

    @Test func padsShortComponentsToThirtyTwoBytes() throws {
        #expect(try ES256Signature.raw(fromDER: Self.smallDER) == Self.smallRaw)
        #expect(try ES256Signature.der(fromRaw: Self.smallRaw) == Self.smallDER)
    }

    @Test func dropsTheSignByteOfComponentsWithTheHighBitSet() throws {
        let r = Data(repeating: 0xFF, count: 32)
        let s = Data([0x80]) + Data(repeating: 0x01, count: 31)
        let der = Data([0x30, 0x46, 0x02, 0x21, 0x00]) + r + Data([0x02, 0x21, 0x00]) + s
        #expect(try ES256Signature.raw(fromDER: der) == r + s)
        #expect(try ES256Signature.der(fromRaw: r + s) == der)
    }

    @Test func encodesZeroComponentsAsOneZeroByteAsOpenSSLDoes() throws {
        #expect(try ES256Signature.der(fromRaw: Data(count: 64)) == Data([0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00]))
    }

    @Test func convertsOpenSSLSignaturesBothWaysUnchanged() throws {
        let key = try ECKey.generate(on: .p256)
        var signatures = 0
        var sawShortComponent = false
        // About one signature in 128 has a component with a leading zero byte, which DER
        // encodes shorter and the raw form pads: keep signing until one has come by.
        while signatures < 200 || (!sawShortComponent && signatures < 10_000) {
            let message = Data("message \(signatures)".utf8)
            let der = try key.signSHA256(message)
            let raw = try ES256Signature.raw(fromDER: der)
            #expect(raw.count == 64)
            #expect(try ES256Signature.der(fromRaw: raw) == der)
            #expect(key.verifySHA256(derSignature: der, of: message))
            sawShortComponent = sawShortComponent || raw.first == 0 || raw[32] == 0
            signatures += 1
        }
        #expect(sawShortComponent)
    }

    @Test func rejectsRawSignaturesOfAnyOtherLength() {
        for length in [0, 32, 63, 65, 96] {
            #expect(throws: ES256Signature.ConversionError.wrongRawLength(length)) {
                try ES256Signature.der(fromRaw: Data(count: length))
            }
        }
    }

    @Test func rejectsMalformedDER() {
        for der in [Data(), Data([0x30]), Data("not der".utf8), Self.smallDER + [0x00], Data([0x30, 0x03, 0x02, 0x01, 0x01])] {
            #expect(throws: ES256Signature.ConversionError.invalidDER) { try ES256Signature.raw(fromDER: der) }
        }
    }

    @Test func rejectsComponentsLargerThanThirtyTwoBytes() {
        let r = Data([0x01]) + Data(repeating: 0, count: 32)
        let der = Data([0x30, 0x26, 0x02, 0x21]) + r + Data([0x02, 0x01, 0x01])
        #expect(throws: ES256Signature.ConversionError.componentTooLarge) { try ES256Signature.raw(fromDER: der) }
    }

    @Test func aChangedMessageOrSignatureDoesNotVerify() throws {
        let key = try ECKey.generate(on: .p256)
        let message = Data("header.payload".utf8)
        var raw = try ES256Signature.raw(fromDER: key.signSHA256(message))
        #expect(key.verifySHA256(derSignature: try ES256Signature.der(fromRaw: raw), of: message))
        #expect(!key.verifySHA256(derSignature: try ES256Signature.der(fromRaw: raw), of: Data("header.payloaD".utf8)))
        raw[40] ^= 0x01
        #expect(!key.verifySHA256(derSignature: try ES256Signature.der(fromRaw: raw), of: message))
        let otherKey = try ECKey.generate(on: .p256)
        #expect(!otherKey.verifySHA256(derSignature: try key.signSHA256(message), of: message))
    }
}
