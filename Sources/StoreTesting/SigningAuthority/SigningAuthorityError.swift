import Foundation
import StoreCore

/// Why a ``SigningAuthority`` could not be created, loaded, stored or used.
public enum SigningAuthorityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The directory holds some of the authority's files but not all; carries the missing
    /// names. Nothing was overwritten: restore the files or remove the others.
    case incompleteDirectory(path: String, missing: [String])
    /// A file could not be read.
    case unreadableFile(path: String, reason: String)
    /// A file does not hold what its name says: a PEM certificate or a PEM EC private key.
    case corruptFile(path: String, reason: String)
    /// A private key file does not belong to the certificate it sits beside.
    case keyDoesNotMatchCertificate(keyPath: String, certificatePath: String)
    /// The certificates do not form a root → intermediate → leaf chain with Apple's marker
    /// extensions.
    case brokenChain(String)
    /// A file or the directory could not be written.
    case unwritable(path: String, reason: String)
    /// OpenSSL could not generate a key or a certificate.
    case generationFailed(String)
    /// The payload's `signedDate` lies outside the chain's validity, so no verifier would
    /// accept it.
    case signedDateOutsideValidity(signedDate: Date, validity: DateInterval)
    /// The payload could not be encoded as JSON.
    case encodingFailed(String)
    /// OpenSSL could not sign.
    case signingFailed(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .incompleteDirectory(let path, let missing):
            "the signing authority in \(path) is incomplete: missing \(missing.joined(separator: ", "))"
        case .unreadableFile(let path, let reason):
            "cannot read \(path): \(reason)"
        case .corruptFile(let path, let reason):
            "\(path) is corrupt: \(reason)"
        case .keyDoesNotMatchCertificate(let keyPath, let certificatePath):
            "the key \(keyPath) does not belong to the certificate \(certificatePath)"
        case .brokenChain(let reason):
            "the signing authority's certificates do not form a chain: \(reason)"
        case .unwritable(let path, let reason):
            "cannot write \(path): \(reason)"
        case .generationFailed(let reason):
            "cannot generate the signing authority: \(reason)"
        case .signedDateOutsideValidity(let signedDate, let validity):
            "signedDate \(signedDate.ISO8601Format()) is outside the chain's validity "
                + "\(validity.start.ISO8601Format()) – \(validity.end.ISO8601Format())"
        case .encodingFailed(let reason):
            "cannot encode the payload: \(reason)"
        case .signingFailed(let reason):
            "cannot sign: \(reason)"
        }
    }
}
