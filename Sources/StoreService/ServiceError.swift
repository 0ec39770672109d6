import StoreCore
import StorePolicy

/// Why a request failed, as the response's `"error": {"kind", "message"}` says it.
///
/// A failed request changes nothing: a line that is not a valid request never reaches the
/// ledger, signed data is verified before the ledger sees it, and the ledger refuses a
/// conflicting transaction without storing any of it.
public enum ServiceError: Error, Sendable, Encodable {
    /// The line is not a valid request (`bad_request`).
    case badRequest(String)
    /// Signed data failed verification (`verification`); `part` names which JWS.
    case verificationFailed(part: String, VerificationError)
    /// The ledger refused the data (`ledger`), such as a transaction id already stored for
    /// another customer.
    case ledgerRefused(LedgerError)
    /// The new policy failed to load (`reload`); the version named keeps serving.
    case reloadFailed(PolicyError, servingVersion: String)
    /// The ledger's database failed (`storage`).
    case storageFailed(String)
    /// The answer could not be written as JSON (`internal`).
    case unencodable(String)

    /// The error's kind, for programs.
    public var kind: String {
        switch self {
        case .badRequest: "bad_request"
        case .verificationFailed: "verification"
        case .ledgerRefused: "ledger"
        case .reloadFailed: "reload"
        case .storageFailed: "storage"
        case .unencodable: "internal"
        }
    }

    /// One line for people.
    public var message: String {
        switch self {
        case .badRequest(let problem): problem
        case .verificationFailed(let part, let error): "\(part): \(error.description)"
        case .ledgerRefused(let error): error.description
        case .reloadFailed(let error, let version): "\(error.description); version \(version) keeps serving"
        case .storageFailed(let problem), .unencodable(let problem): problem
        }
    }

    private enum CodingKeys: String, CodingKey { case kind, message }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(message, forKey: .message)
    }

    /// The error of a ledger call: the ledger's own refusal, or a storage failure.
    public static func ledger(_ error: any Error) -> ServiceError {
        if let refusal = error as? LedgerError { return .ledgerRefused(refusal) }
        return .storageFailed("\(error)")
    }
}
