/// The coarse outcome Apple's App Store Server Library reports for a failed verification
/// (Apple's `VerificationStatus`), spelled as Apple's Python library names it.
///
/// ``VerificationError/status`` maps each precise StoreRules error to it, so results can be
/// compared with Apple's library.
public enum VerificationStatus: String, Sendable, Hashable, CaseIterable {
    /// `VERIFICATION_FAILURE`: the JWS is malformed, uses another algorithm, does not chain to
    /// a trusted root, lacks a marker extension, is outside a certificate's validity, or its
    /// signature does not verify.
    case verificationFailure = "VERIFICATION_FAILURE"
    /// `INVALID_APP_IDENTIFIER`: the bundle identifier or the app's Apple ID differs.
    case invalidAppIdentifier = "INVALID_APP_IDENTIFIER"
    /// `INVALID_CERTIFICATE`: a certificate in the header cannot be read.
    case invalidCertificate = "INVALID_CERTIFICATE"
    /// `INVALID_CHAIN_LENGTH`: the header does not carry exactly three certificates.
    case invalidChainLength = "INVALID_CHAIN_LENGTH"
    /// `INVALID_ENVIRONMENT`: the payload comes from another environment.
    case invalidEnvironment = "INVALID_ENVIRONMENT"
}
