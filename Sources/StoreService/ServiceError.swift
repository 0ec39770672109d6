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
    /// A decision asked for could not be made (`decision`): a wrong argument, or a `grant` or
    /// custom hook that failed (they have no default to fall back to).
    case decisionFailed(PolicyError)
    /// The request conflicts with how the service runs (`conflict`), such as a reload from the
    /// folder on a service that follows the ledger's policy releases.
    case conflict(String)
    /// The ledger's database failed (`storage`); the failure says whether it may pass.
    case storageFailed(LedgerStorageFailure)
    /// The answer could not be written as JSON (`internal`).
    case unencodable(String)
    /// The ledger has never recorded this customer (`customer_not_found`).
    case customerNotFound(String)
    /// Neither the serving policy nor the ledger knows this experiment (`experiment_not_found`).
    case experimentNotFound(ExperimentReportError)

    /// The error's kind, for programs.
    public var kind: String {
        switch self {
        case .badRequest: "bad_request"
        case .verificationFailed: "verification"
        case .ledgerRefused: "ledger"
        case .reloadFailed: "reload"
        case .decisionFailed: "decision"
        case .conflict: "conflict"
        case .storageFailed: "storage"
        case .unencodable: "internal"
        case .customerNotFound: "customer_not_found"
        case .experimentNotFound: "experiment_not_found"
        }
    }

    /// One line for people.
    public var message: String {
        switch self {
        case .badRequest(let problem): problem
        case .verificationFailed(let part, let error): "\(part): \(error.description)"
        // An app's key must not learn which customer holds a token by trying it.
        case .ledgerRefused(.appAccountTokenInUse(let token, _)): "the app account token \(token) already belongs to another customer"
        case .ledgerRefused(let error): error.description
        case .reloadFailed(let error, let version): "\(error.description); version \(version) keeps serving"
        case .decisionFailed(let error): error.description
        case .conflict(let problem): problem
        case .storageFailed(let failure): failure.message
        case .unencodable(let problem): problem
        case .customerNotFound(let customerID): "the ledger has no customer \(customerID)"
        case .experimentNotFound(let error): error.description
        }
    }

    private enum CodingKeys: String, CodingKey { case kind, message }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(message, forKey: .message)
    }

    /// The HTTP status that answers this error: `400` for a request or signed data that is
    /// wrong, `404` for a customer the ledger has never seen or an experiment nobody declared, `409` for data the ledger holds otherwise, `422` for a policy or a decision that
    /// failed, `503` when the ledger's storage failed or a transaction kept changing while it was
    /// decided (a retry later may succeed), `500` for any
    /// other failure.
    public var httpStatus: Int {
        switch self {
        case .badRequest, .verificationFailed: 400
        case .ledgerRefused(let error):
            switch error {
            case .conflictingTransaction, .transactionOfAnotherCustomer, .appAccountTokenInUse, .conflictingAppAccountToken: 409
            case .tooManyEventNames: 422
            case .decisionOutpaced: 503
            default: 400
            }
        case .reloadFailed, .decisionFailed: 422
        case .conflict: 409
        case .storageFailed: 503
        case .unencodable: 500
        case .customerNotFound, .experimentNotFound: 404
        }
    }

    /// The error of a ledger call: the ledger's own refusal, or a storage failure.
    public static func ledger(_ error: any Error) -> ServiceError {
        switch error as? LedgerError {
        case .storage(let failure): return .storageFailed(failure)
        case let refusal? where refusal.isMalformedInput: return .badRequest(refusal.description)
        case let refusal?: return .ledgerRefused(refusal)
        case nil: return .storageFailed(LedgerStorageFailure(error))
        }
    }
}
