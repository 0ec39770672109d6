import Foundation
@testable import SignedData
@testable import StoreTesting
import Testing

/// Data signed as StoreKit Testing in Xcode signs it: one self-signed certificate in `x5c`.
/// Accepted in the Xcode and LocalTesting environments, with its signature checked; refused
/// in Sandbox and Production.
@Suite struct SignedDataXcodeTests {
    typealias Support = SignedDataTestSupport

    /// Signs `payload` with the shared authority's root key under `x5c: [root]`, as Xcode signs
    /// with its own self-signed certificate.
    static func signedBySelfSignedCertificate<Payload: Encodable>(_ payload: Payload) throws -> String {
        let header = JWSDecodedHeader(alg: "ES256", x5c: Support.x5c([Support.authority.rootCertificate]))
        return try Support.sign(payload, header: header, key: Support.authority.rootKey)
    }

    private func verifier(_ environment: AppStoreEnvironment, roots: [X509Certificate] = []) throws -> SignedDataVerifier {
        try Support.verifier(environment: environment, roots: roots)
    }

    @Test("a transaction under one self-signed certificate verifies in Xcode and LocalTesting, with or without roots",
          arguments: [AppStoreEnvironment.xcode, .localTesting])
    func selfSignedTransactionVerifies(in environment: AppStoreEnvironment) throws {
        let jws = try Self.signedBySelfSignedCertificate(Support.transaction(environment: environment))
        for roots in [[], [Support.authority.rootCertificate]] {
            let verifier = try verifier(environment, roots: roots)
            let transaction = try verifier.verifyAndDecodeTransaction(jws)
            #expect(transaction.productId == "pass.premium")
            #expect(verifier.statistics.signatureVerifications == 1)
        }
    }

    @Test("a tampered payload under one self-signed certificate is refused: its signature is checked")
    func selfSignedSignatureIsChecked() throws {
        let jws = Support.tampered(try Self.signedBySelfSignedCertificate(Support.transaction(environment: .xcode)))
        #expect(throws: VerificationError.invalidSignature) { try verifier(.xcode).verifyAndDecodeTransaction(jws) }
    }

    @Test("one self-signed certificate is refused in Sandbox and Production",
          arguments: [AppStoreEnvironment.sandbox, .production])
    func selfSignedRefusedOutsideXcode(in environment: AppStoreEnvironment) throws {
        let jws = try Self.signedBySelfSignedCertificate(Support.transaction(environment: environment))
        let verifier = try verifier(environment, roots: [Support.authority.rootCertificate])
        #expect(throws: VerificationError.invalidChainLength(1)) { try verifier.verifyAndDecodeTransaction(jws) }
    }

    @Test("an Xcode verifier still checks the payload's environment and bundle identifier")
    func xcodeVerifierChecksEnvironmentAndBundle() throws {
        let sandboxPayload = try Self.signedBySelfSignedCertificate(Support.transaction(environment: .sandbox))
        #expect(throws: VerificationError.invalidEnvironment(expected: .xcode, found: .sandbox)) {
            try verifier(.xcode).verifyAndDecodeTransaction(sandboxPayload)
        }
        let otherApp = try Self.signedBySelfSignedCertificate(Support.transaction(bundleId: "com.example.other", environment: .xcode))
        #expect(throws: VerificationError.invalidAppIdentifier(expected: Support.bundleId, found: "com.example.other")) {
            try verifier(.xcode).verifyAndDecodeTransaction(otherApp)
        }
    }

    @Test("a self-signed certificate whose key is not P-256 is refused")
    func selfSignedKeyMustBeP256() throws {
        let key = try ECKey.generate(on: .p384)
        let certificate = try CertificateIssuer.issue(
            .root, commonName: "Not Xcode", subjectKey: key, issuer: nil,
            validity: SigningAuthority.standardValidity(around: Date()), markerExtensionOID: nil)
        let header = JWSDecodedHeader(alg: "ES256", x5c: Support.x5c([certificate]))
        let jws = try Support.sign(Support.transaction(environment: .xcode), header: header)
        #expect(throws: VerificationError.unsupportedLeafKey("secp384r1")) { try verifier(.xcode).verifyAndDecodeTransaction(jws) }
    }
}

/// Data in the shape StoreKit Testing in Xcode signs: the project's own vectors
/// (`XcodeVectors/`), always, and the files Apple's App Store Server Library tests with
/// (`tests/resources/xcode/` in `app-store-server-library-python`) when
/// `../shared/fixtures/xcode/` beside the package holds them. Both carry the same payloads.
@Suite struct SignedDataXcodeVectorTests {
    private let bundleId = "com.example.naturelab.backyardbirds.example"

    private func verifier(_ environment: AppStoreEnvironment) throws -> SignedDataVerifier {
        try SignedDataVerifier(rootCertificates: [SignedDataTestSupport.authority.rootCertificate], bundleId: bundleId,
                               appAppleId: 1234, environment: environment)
    }

    @Test("an Xcode-signed transaction verifies in the Xcode environment and decodes as Apple's library decodes it",
          arguments: XcodeVectors.available)
    func xcodeTransactionVerifies(_ vectors: XcodeVectors) throws {
        let transaction = try verifier(.xcode).verifyAndDecodeTransaction(try vectors.read("xcode-signed-transaction"))
        #expect(transaction.transactionId == "0")
        #expect(transaction.originalTransactionId == "0")
        #expect(transaction.productId == "pass.premium")
        #expect(transaction.subscriptionGroupIdentifier == "6F3A93AB")
        #expect(transaction.purchaseDate?.millisecondsSince1970 == 1_697_679_936_049)
        #expect(transaction.expiresDate?.millisecondsSince1970 == 1_700_358_336_049)
        #expect(transaction.signedDate?.millisecondsSince1970 == 1_697_679_936_056)
        #expect(transaction.type == .autoRenewableSubscription)
        #expect(transaction.offerType == .introductoryOffer)
        #expect(transaction.environment == .xcode)
        #expect(transaction.storefront == "USA")
        #expect(transaction.transactionReason == .purchase)
    }

    @Test("an Xcode-signed renewal info verifies in the Xcode environment", arguments: XcodeVectors.available)
    func xcodeRenewalInfoVerifies(_ vectors: XcodeVectors) throws {
        let renewalInfo = try verifier(.xcode).verifyAndDecodeRenewalInfo(try vectors.read("xcode-signed-renewal-info"))
        #expect(renewalInfo.originalTransactionId == "0")
        #expect(renewalInfo.autoRenewProductId == "pass.premium")
        #expect(renewalInfo.environment == .xcode)
    }

    @Test("Xcode-signed data is refused in Sandbox and Production",
          arguments: XcodeVectors.available, [AppStoreEnvironment.sandbox, .production])
    func xcodeVectorsRefusedOutsideXcode(_ vectors: XcodeVectors, in environment: AppStoreEnvironment) throws {
        let verifier = try verifier(environment)
        #expect(throws: VerificationError.invalidChainLength(1)) {
            try verifier.verifyAndDecodeTransaction(try vectors.read("xcode-signed-transaction"))
        }
        #expect(throws: VerificationError.invalidChainLength(1)) {
            try verifier.verifyAndDecodeRenewalInfo(try vectors.read("xcode-signed-renewal-info"))
        }
    }

    @Test("the project's vectors are in Xcode's shape: one self-signed certificate signs exactly the payload kept beside them")
    func projectVectorsHaveXcodesShape() throws {
        for name in ["xcode-signed-transaction", "xcode-signed-renewal-info"] {
            let jws = try CompactJWS(parsing: try XcodeVectors.project.read(name))
            #expect(jws.header.alg == "ES256")
            #expect(jws.header.x5c?.count == 1, "\(name)")
            let payload = try XcodeVectors.project.read(name + ".payload.json")
            #expect(String(decoding: jws.payload, as: UTF8.self) == payload, "\(name)")
            #expect(payload.contains(".7297"), "Xcode's fractional milliseconds are kept")
        }
        var parts = try XcodeVectors.project.read("xcode-signed-transaction").split(separator: ".").map(String.init)
        let signedPayload = String(decoding: try #require(Base64URL.decode(Substring(parts[1]))), as: UTF8.self)
        let changed = signedPayload.replacingOccurrences(of: #""quantity":1"#, with: #""quantity":9"#)
        #expect(changed != signedPayload)
        parts[1] = Base64URL.encode(Data(changed.utf8))
        #expect(throws: VerificationError.invalidSignature) {
            try verifier(.xcode).verifyAndDecodeTransaction(parts.joined(separator: "."))
        }
    }
}

/// Where Xcode-shaped signed data is read from.
enum XcodeVectors: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The project's own, under `Tests/SignedDataTests/XcodeVectors/`.
    case project
    /// Apple's, under `../shared/fixtures/xcode/`.
    case apple

    /// The project's vectors, and Apple's when they are there.
    static let available: [XcodeVectors] = allCases.filter {
        FileManager.default.fileExists(atPath: $0.directory.appendingPathComponent("xcode-signed-transaction").path)
    }

    var testDescription: String { rawValue }

    var directory: URL {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        switch self {
        case .project: return tests.appendingPathComponent("XcodeVectors")
        case .apple:
            return tests.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("../shared/fixtures/xcode").standardizedFileURL
        }
    }

    func read(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
