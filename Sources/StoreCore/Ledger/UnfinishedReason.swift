/// Why a stored transaction is not finished yet.
///
/// The ledger records the reason with the transaction, and
/// ``Ledger/retryUnfinished(decide:)`` grants it later; nothing is lost and nothing is granted
/// twice.
public enum UnfinishedReason: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Stored, and no grant decision has been recorded yet (the process may have stopped
    /// between storing and granting).
    case awaitingGrant
    /// The grant decision threw; the associated text describes the error.
    case decisionFailed(String)
    /// The grant decision returned a grant that breaks the rules of ``Grant``; the associated
    /// text names it.
    case invalidGrant(String)

    /// One line: the reason and its detail.
    public var description: String {
        switch self {
        case .awaitingGrant: "awaiting a grant decision"
        case .decisionFailed(let detail): "the grant decision failed: \(detail)"
        case .invalidGrant(let detail): "the grant decision was invalid: \(detail)"
        }
    }
}
