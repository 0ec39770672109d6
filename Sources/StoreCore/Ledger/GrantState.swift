/// Where a stored transaction stands with respect to its grants, and so whether it is finished.
public enum GrantState: Hashable, Sendable, Codable {
    /// Not finished: no grant decision is recorded yet, for the given reason.
    case unfinished(UnfinishedReason)
    /// Finished: the grant decision (possibly granting nothing) is recorded.
    case granted
    /// Finished without a grant decision: the transaction was already revoked when the ledger
    /// would have granted it. If the revocation is withdrawn, it becomes unfinished again.
    case revokedBeforeGrant

    /// Whether the transaction is finished (StoreKit's `finish()` may be called for it).
    public var isFinished: Bool {
        if case .unfinished = self { return false }
        return true
    }
}
