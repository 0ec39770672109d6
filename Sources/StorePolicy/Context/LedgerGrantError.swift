/// Why ``PolicyEngine/grantDecision(for:catalog:attributes:clock:)`` could not ask the policy
/// about a stored transaction. The ledger records it as the reason the transaction stays
/// unfinished.
public enum LedgerGrantError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stored JWS does not decode into a transaction payload.
    case unreadableTransaction(transactionID: String, reason: String)
    /// The stored JWS holds another transaction than the stored columns describe.
    case transactionMismatch(transactionID: String, field: String, stored: String, signed: String)
    /// The `grant` hook read a variant that another decision recorded differently first; the
    /// transaction is decided again, on the recorded variant, when it is retried.
    case variantRecordedOtherwise(transactionID: String)

    /// One line describing the problem.
    public var description: String {
        switch self {
        case .unreadableTransaction(let transactionID, let reason):
            "the stored JWS of transaction \(transactionID) cannot be read: \(reason)"
        case .transactionMismatch(let transactionID, let field, let stored, let signed):
            "the stored JWS of transaction \(transactionID) has \(field) \(signed), and the ledger holds \(stored)"
        case .variantRecordedOtherwise(let transactionID):
            "the grant of transaction \(transactionID) read an experiment's variant that the ledger had recorded otherwise; it is decided again on a retry"
        }
    }
}
