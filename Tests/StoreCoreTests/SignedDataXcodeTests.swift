import Foundation
@testable import StoreCore
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

/// The files StoreKit Testing in Xcode signed that Apple's App Store Server Library tests with
/// (`tests/resources/xcode/` in `app-store-server-library-python`), read from
/// `../shared/fixtures/xcode/` beside the package when they are there.
@Suite(.enabled(if: AppleXcodeVectors.available, "needs ../shared/fixtures/xcode/ with Apple's Xcode-signed test files"))
struct SignedDataAppleXcodeVectorTests {
    private let bundleId = "com.example.naturelab.backyardbirds.example"

    private func verifier(_ environment: AppStoreEnvironment) throws -> SignedDataVerifier {
        try SignedDataVerifier(rootCertificates: [SignedDataTestSupport.authority.rootCertificate], bundleId: bundleId,
                               appAppleId: 1234, environment: environment)
    }

    @Test("Apple's Xcode-signed transaction verifies in the Xcode environment and decodes as Apple's library decodes it")
    func appleXcodeTransactionVerifies() throws {
        let transaction = try verifier(.xcode).verifyAndDecodeTransaction(try AppleXcodeVectors.read("xcode-signed-transaction"))
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

    @Test("Apple's Xcode-signed renewal info verifies in the Xcode environment")
    func appleXcodeRenewalInfoVerifies() throws {
        let renewalInfo = try verifier(.xcode).verifyAndDecodeRenewalInfo(try AppleXcodeVectors.read("xcode-signed-renewal-info"))
        #expect(renewalInfo.originalTransactionId == "0")
        #expect(renewalInfo.autoRenewProductId == "pass.premium")
        #expect(renewalInfo.environment == .xcode)
    }

    @Test("Apple's Xcode-signed data is refused in Sandbox and Production", arguments: [AppStoreEnvironment.sandbox, .production])
    func appleXcodeVectorsRefusedOutsideXcode(in environment: AppStoreEnvironment) throws {
        let verifier = try verifier(environment)
        #expect(throws: VerificationError.invalidChainLength(1)) {
            try verifier.verifyAndDecodeTransaction(try AppleXcodeVectors.read("xcode-signed-transaction"))
        }
        #expect(throws: VerificationError.invalidChainLength(1)) {
            try verifier.verifyAndDecodeRenewalInfo(try AppleXcodeVectors.read("xcode-signed-renewal-info"))
        }
    }
}

/// Where Apple's Xcode-signed test files are looked for.
enum AppleXcodeVectors {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/fixtures/xcode").standardizedFileURL

    static var available: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("xcode-signed-transaction").path)
    }

    static func read(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
