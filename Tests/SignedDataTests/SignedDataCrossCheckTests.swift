import AppleLibraryCrossCheck
import Foundation
@testable import SignedData
@testable import StoreTesting
import Testing
import TestPrerequisites

extension AppleLibrary {
    /// What `verify.py` printed for one payload.
    struct Verdict<Payload: Decodable>: Decodable {
        let ok: Bool
        let status: String?
        let decoded: Payload?
        let error: String?
    }
}

/// Signed data from ``SigningAuthority`` verified by both StoreRules' verifier and Apple's
/// library: both must accept the same data, decode it the same, and reject bad data with the
/// same status.
@Suite(.enabled(if: TestPrerequisite.runs(AppleLibrary.isInstalled), "needs .venv: run scripts/crosscheck/setup.sh"))
struct SignedDataCrossCheckTests {
    typealias Support = SignedDataTestSupport

    /// One situation to show both verifiers.
    enum Scenario: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case transactionVerifies, renewalInfoVerifies, notificationVerifies, productionNotificationVerifies
        case tamperedPayload, wrongBundleId, wrongEnvironment, anotherRoot
        case leafWithoutMarker, intermediateWithoutMarker, algorithmNone, twoCertificateChain
        case signedAfterTheChainExpired, notificationForAnotherAppAppleId
        case xcodeSelfSignedCertificate, selfSignedCertificateInSandbox

        var testDescription: String { rawValue }
    }

    /// The signed data, the verifier's configuration, and the expected outcome of a scenario.
    struct Setup: Sendable {
        enum Kind: String { case transaction, renewal, notification }
        var jws: String
        var kind: Kind = .transaction
        var roots = [Support.authority.rootCertificate]
        var environment: AppStoreEnvironment = .sandbox
        var appAppleId: Int64?
        /// The status both verifiers report, or nil when both accept.
        var expected: VerificationStatus?
        /// The precise StoreRules error expected, as its case name.
        var swiftError: String?
    }

    /// Every scenario's setup, made once so that Apple's library sees the same signed data.
    static let setups: Result<[Scenario: Setup], any Error> = Result {
        try Dictionary(uniqueKeysWithValues: Scenario.allCases.map { ($0, try setup($0)) })
    }

    /// Apple's result for every scenario, from one run of `verify.py`.
    static let appleResults: Result<[Scenario: Data], any Error> = Result {
        let setups = try Self.setups.get()
        let directory = try TestFolders.make("storerules-crosscheck")
        defer { try? FileManager.default.removeItem(at: directory) }
        let requests = try Scenario.allCases.map { scenario in
            let setup = setups[scenario]!
            let rootFile = directory.appending(path: "\(scenario.rawValue).pem")
            try setup.roots.map(\.pemRepresentation).joined().write(to: rootFile, atomically: true, encoding: .utf8)
            return AppleLibrary.Request(
                root: rootFile.path, bundleId: Support.bundleId, environment: setup.environment.rawValue,
                appAppleId: setup.appAppleId, kind: setup.kind.rawValue, jws: setup.jws)
        }
        return Dictionary(uniqueKeysWithValues: zip(Scenario.allCases, try AppleLibrary.verify(requests)))
    }

    static func setup(_ scenario: Scenario) throws -> Setup {
        let authority = Support.authority
        switch scenario {
        case .transactionVerifies:
            return Setup(jws: try authority.sign(Support.transaction()))
        case .renewalInfoVerifies:
            return Setup(jws: try authority.sign(Support.renewalInfo()), kind: .renewal)
        case .notificationVerifies:
            return Setup(jws: try authority.sign(Support.notification()), kind: .notification)
        case .productionNotificationVerifies:
            return Setup(
                jws: try authority.sign(Support.notification(environment: .production)), kind: .notification,
                environment: .production, appAppleId: Support.appAppleId)
        case .tamperedPayload:
            return Setup(jws: Support.tampered(try authority.sign(Support.transaction())),
                         expected: .verificationFailure, swiftError: "invalidSignature")
        case .wrongBundleId:
            return Setup(jws: try authority.sign(Support.transaction(bundleId: "com.example.other")),
                         expected: .invalidAppIdentifier, swiftError: "invalidAppIdentifier")
        case .wrongEnvironment:
            return Setup(jws: try authority.sign(Support.transaction(environment: .production)),
                         expected: .invalidEnvironment, swiftError: "invalidEnvironment")
        case .anotherRoot:
            return Setup(jws: try SigningAuthority.generate(name: "Other").sign(Support.transaction()),
                         expected: .verificationFailure, swiftError: "untrustedChain")
        case .leafWithoutMarker, .intermediateWithoutMarker:
            let chain = try Support.chain(
                leafMarker: scenario != .leafWithoutMarker, intermediateMarker: scenario != .intermediateWithoutMarker)
            return Setup(jws: try chain.sign(Support.transaction()), roots: [authority.rootCertificate, chain.rootCertificate],
                         expected: .verificationFailure, swiftError: "missingMarkerExtension")
        case .algorithmNone:
            let header = #"{"alg":"none","x5c":["# + Support.x5c(authority.certificateChain).map { "\"\($0)\"" }.joined(separator: ",") + "]}"
            let payload = String(decoding: try SignedPayloadJSON.makeEncoder().encode(Support.transaction()), as: UTF8.self)
            return Setup(jws: Support.assemble(header: header, payload: payload, signature: Data()),
                         expected: .verificationFailure, swiftError: "unsupportedAlgorithm")
        case .twoCertificateChain:
            let header = JWSDecodedHeader(alg: "ES256", x5c: Array(Support.x5c(authority.certificateChain).prefix(2)))
            return Setup(jws: try Support.sign(Support.transaction(), header: header),
                         expected: .invalidChainLength, swiftError: "invalidChainLength")
        case .signedAfterTheChainExpired:
            let header = JWSDecodedHeader(alg: "ES256", x5c: Support.x5c(authority.certificateChain))
            let late = authority.validity.end.addingTimeInterval(3600)
            return Setup(jws: try Support.sign(Support.transaction(signedDate: late), header: header),
                         expected: .verificationFailure, swiftError: "certificateNotValidAtSignedDate")
        case .xcodeSelfSignedCertificate:
            return Setup(jws: try SignedDataXcodeTests.signedBySelfSignedCertificate(Support.transaction(environment: .xcode)),
                         environment: .xcode)
        case .selfSignedCertificateInSandbox:
            return Setup(jws: try SignedDataXcodeTests.signedBySelfSignedCertificate(Support.transaction()),
                         expected: .invalidChainLength, swiftError: "invalidChainLength")
        case .notificationForAnotherAppAppleId:
            return Setup(
                jws: try authority.sign(Support.notification(appAppleId: 1235, environment: .production)), kind: .notification,
                environment: .production, appAppleId: Support.appAppleId,
                expected: .invalidAppIdentifier, swiftError: "invalidAppAppleId")
        }
    }

    @Test(arguments: Scenario.allCases)
    func bothVerifiersAgree(on scenario: Scenario) throws {
        let setup = try Self.setups.get()[scenario]!
        let appleResult = try Self.appleResults.get()[scenario]!
        let verifier = try SignedDataVerifier(
            rootCertificates: setup.roots, bundleId: Support.bundleId, appAppleId: setup.appAppleId, environment: setup.environment)
        switch setup.kind {
        case .transaction:
            try compare(setup, appleResult, as: JWSTransactionDecodedPayload.self) { try verifier.verifyAndDecodeTransaction($0) }
        case .renewal:
            try compare(setup, appleResult, as: JWSRenewalInfoDecodedPayload.self) { try verifier.verifyAndDecodeRenewalInfo($0) }
        case .notification:
            try compare(setup, appleResult, as: ResponseBodyV2DecodedPayload.self) { try verifier.verifyAndDecodeNotification($0) }
        }
    }

    func compare<Payload: SignedPayload>(
        _ setup: Setup, _ appleResult: Data, as type: Payload.Type, verify: (String) throws -> Payload
    ) throws {
        let apple = try SignedPayloadJSON.makeDecoder().decode(AppleLibrary.Verdict<Payload>.self, from: appleResult)
        let signed = try CompactJWS(parsing: setup.jws)
        if let expected = setup.expected {
            #expect(apple.ok == false)
            #expect(apple.status == expected.rawValue, "Apple's library: \(apple.status ?? "ok") \(apple.error ?? "")")
            do {
                let payload = try verify(setup.jws)
                Issue.record("StoreRules accepted what Apple's library rejects: \(payload)")
            } catch let error as VerificationError {
                #expect(error.status == expected)
                #expect(Self.caseName(of: error) == setup.swiftError, "\(error)")
            }
        } else {
            #expect(apple.ok, "Apple's library rejected it: \(apple.status ?? "") \(apple.error ?? "")")
            let ours = try verify(setup.jws)
            #expect(ours == (try signed.decodePayload(as: Payload.self)))
            // Field by field against the payload as signed: Apple's output as JSON, ours as it
            // encodes again, neither read back through StoreRules' decoder.
            let raw = JSONFieldComparison.object(signed.payload)
            let appleDecoded = JSONFieldComparison.object(appleResult)["decoded"] as? [String: Any] ?? [:]
            #expect(!raw.isEmpty)
            #expect(JSONFieldComparison.mismatches(raw, in: appleDecoded) == [], "fields Apple's library decoded otherwise")
            let oursEncoded = JSONFieldComparison.object(try SignedPayloadJSON.makeEncoder().encode(ours))
            #expect(JSONFieldComparison.mismatches(raw, in: oursEncoded) == [], "fields StoreRules decoded otherwise")
        }
    }

    /// The name of an error's case, without its associated values.
    static func caseName(of error: VerificationError) -> String {
        switch error {
        case .malformedJWS: "malformedJWS"
        case .malformedPayload: "malformedPayload"
        case .missingCertificateChain: "missingCertificateChain"
        case .unsupportedAlgorithm: "unsupportedAlgorithm"
        case .invalidChainLength: "invalidChainLength"
        case .invalidCertificate: "invalidCertificate"
        case .untrustedChain: "untrustedChain"
        case .certificateNotValidAtSignedDate: "certificateNotValidAtSignedDate"
        case .missingMarkerExtension: "missingMarkerExtension"
        case .unsupportedLeafKey: "unsupportedLeafKey"
        case .invalidSignature: "invalidSignature"
        case .invalidAppIdentifier: "invalidAppIdentifier"
        case .invalidAppAppleId: "invalidAppAppleId"
        case .invalidEnvironment: "invalidEnvironment"
        }
    }
}
