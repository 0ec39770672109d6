import Foundation

/// Why ``SignedDataVerifier`` rejected signed data.
///
/// The cases are listed in the order the verifier checks them. Each is more precise than
/// Apple's statuses; ``status`` gives the status Apple's library reports for the same input.
public enum VerificationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is not a compact JWS.
    case malformedJWS(JWSFormatError)
    /// The payload is not JSON of the expected shape (a date that is not a number, a price
    /// that is a string, …); carries where and why.
    case malformedPayload(String)
    /// The header has no `x5c` certificate chain, or an empty one.
    case missingCertificateChain
    /// The header's `alg` is not exactly `ES256` (such as `none` or `ES384`); carries it.
    case unsupportedAlgorithm(String?)
    /// The header's `x5c` does not hold exactly three certificates; carries the count.
    case invalidChainLength(Int)
    /// The certificate at `index` in `x5c` is not standard base64 of a DER certificate.
    case invalidCertificate(index: Int, reason: String)
    /// The leaf and intermediate do not form a valid path to a configured trusted root;
    /// carries OpenSSL's reason.
    case untrustedChain(String)
    /// A certificate of the path is not valid at the payload's `signedDate` (or now, for a
    /// payload without one): expired or not yet valid.
    case certificateNotValidAtSignedDate(subject: String, date: Date)
    /// The leaf or intermediate lacks Apple's marker extension for its role.
    case missingMarkerExtension(CertificateRole)
    /// The leaf's key is not an elliptic-curve P-256 key, which ES256 needs; carries its curve.
    case unsupportedLeafKey(String)
    /// The signature is not the leaf key's ES256 signature of the header and payload.
    case invalidSignature
    /// The payload's bundle identifier is not the configured one.
    case invalidAppIdentifier(expected: String, found: String?)
    /// The notification's app Apple ID is not the configured one (checked in production).
    case invalidAppAppleId(expected: Int64?, found: Int64?)
    /// The payload comes from another environment than the configured one.
    case invalidEnvironment(expected: AppStoreEnvironment, found: AppStoreEnvironment?)

    /// The status Apple's App Store Server Library reports for the same failure.
    public var status: VerificationStatus {
        switch self {
        case .malformedJWS, .malformedPayload, .missingCertificateChain, .unsupportedAlgorithm,
             .untrustedChain, .certificateNotValidAtSignedDate, .missingMarkerExtension,
             .unsupportedLeafKey, .invalidSignature:
            .verificationFailure
        case .invalidChainLength: .invalidChainLength
        case .invalidCertificate: .invalidCertificate
        case .invalidAppIdentifier, .invalidAppAppleId: .invalidAppIdentifier
        case .invalidEnvironment: .invalidEnvironment
        }
    }

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .malformedJWS(let error):
            "malformed JWS: \(error)"
        case .malformedPayload(let reason):
            "malformed payload: \(reason)"
        case .missingCertificateChain:
            "the JWS header has no x5c certificate chain"
        case .unsupportedAlgorithm(let algorithm):
            "the JWS algorithm is \(algorithm.map { "'\($0)'" } ?? "missing"), not ES256"
        case .invalidChainLength(let count):
            "the x5c chain has \(count) certificates, not 3"
        case .invalidCertificate(let index, let reason):
            "x5c[\(index)] is not a certificate: \(reason)"
        case .untrustedChain(let reason):
            "the certificate chain does not lead to a trusted root: \(reason)"
        case .certificateNotValidAtSignedDate(let subject, let date):
            "the certificate '\(subject)' is not valid at \(date.ISO8601Format())"
        case .missingMarkerExtension(let role):
            "the \(role.rawValue) certificate lacks Apple's marker extension \(role.markerExtensionOID)"
        case .unsupportedLeafKey(let curve):
            "the leaf key is \(curve), not P-256"
        case .invalidSignature:
            "the signature does not verify with the leaf certificate's key"
        case .invalidAppIdentifier(let expected, let found):
            "the bundle identifier is \(found.map { "'\($0)'" } ?? "missing"), not '\(expected)'"
        case .invalidAppAppleId(let expected, let found):
            "the app Apple ID is \(found.map(String.init) ?? "missing"), not \(expected.map(String.init) ?? "none")"
        case .invalidEnvironment(let expected, let found):
            "the environment is \(found.map { "'\($0)'" } ?? "missing"), not '\(expected)'"
        }
    }
}
