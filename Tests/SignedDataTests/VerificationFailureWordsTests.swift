import Foundation
@testable import SignedData
@testable import StoreTesting
import Testing

/// What a failed verification says and which of Apple's statuses it reports: the detail
/// `storerules verify` prints after the check's name.
@Suite struct VerificationFailureWordsTests {
    typealias Support = SignedDataTestSupport

    /// The verification error `body` throws, or nil when it throws none.
    func failure(_ body: () throws -> Void) -> VerificationError? {
        #expect(throws: VerificationError.self) { try body() }
    }

    @Test func aTamperedPayloadDoesNotVerifyWithTheLeafKey() throws {
        let jws = try Support.authority.sign(Support.transaction())
        let error = failure { _ = try Support.verifier().verifyAndDecodeTransaction(Support.tampered(jws)) }
        #expect(error?.description.contains("does not verify with the leaf certificate's key") == true, "\(String(describing: error))")
        #expect(error?.status.rawValue == "VERIFICATION_FAILURE")
    }

    @Test func anotherBundleIdentifierIsNamedBesideTheOneExpected() throws {
        let jws = try Support.authority.sign(Support.transaction())
        let verifier = try SignedDataVerifier(rootCertificates: [Support.authority.rootCertificate], bundleId: "com.example.other",
                                              appAppleId: nil, environment: .sandbox)
        let error = failure { _ = try verifier.verifyAndDecodeTransaction(jws) }
        #expect(error?.description.contains("the bundle identifier is '\(Support.bundleId)', not 'com.example.other'") == true,
                "\(String(describing: error))")
        #expect(error?.status.rawValue == "INVALID_APP_IDENTIFIER")
    }

    @Test func anotherEnvironmentIsNamedBesideTheOneExpected() throws {
        let jws = try Support.authority.sign(Support.transaction())
        let error = failure { _ = try Support.verifier(environment: .production, appAppleId: 1234).verifyAndDecodeTransaction(jws) }
        #expect(error?.description.contains("the environment is 'Sandbox', not 'Production'") == true, "\(String(describing: error))")
        #expect(error?.status.rawValue == "INVALID_ENVIRONMENT")
    }

    @Test func aProductionNotificationForAnotherAppNamesItsAppleID() throws {
        let jws = try Support.authority.sign(Support.notification(appAppleId: 1234, environment: .production))
        #expect(try Support.verifier(environment: .production, appAppleId: 1234).verifyAndDecodeNotification(jws).data?.appAppleId == 1234)
        let error = failure { _ = try Support.verifier(environment: .production, appAppleId: 999).verifyAndDecodeNotification(jws) }
        #expect(error?.description.contains("the app Apple ID is 1234, not 999") == true, "\(String(describing: error))")
        #expect(error?.status.rawValue == "INVALID_APP_IDENTIFIER")
    }

    @Test func dataSignedUnderAnotherRootFailsTheChain() throws {
        let other = try SigningAuthority.generate(name: "Another", validity: SigningAuthority.standardValidity(around: Support.signedDate))
        let error = failure { _ = try Support.verifier().verifyAndDecodeTransaction(try other.sign(Support.transaction())) }
        guard case .untrustedChain = error else {
            Issue.record("expected an untrusted chain, not \(String(describing: error))")
            return
        }
        #expect(error?.status.rawValue == "VERIFICATION_FAILURE")
    }
}
