/// Why a ``SignedDataVerifier`` could not be configured.
public enum VerifierConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The production environment needs the app's Apple ID, as in Apple's library.
    case missingAppAppleId
    /// No trusted root was given for an environment whose data must be verified (every one
    /// but Xcode and LocalTesting).
    case missingRootCertificates(AppStoreEnvironment)
    /// Online revocation checks (OCSP) were asked for; StoreRules verifies offline only.
    case onlineChecksUnavailable

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .missingAppAppleId:
            "the Production environment needs the app's Apple ID"
        case .missingRootCertificates(let environment):
            "the \(environment) environment needs at least one trusted root certificate"
        case .onlineChecksUnavailable:
            "online revocation checks are not available: StoreRules verifies offline, at each payload's signedDate"
        }
    }
}
