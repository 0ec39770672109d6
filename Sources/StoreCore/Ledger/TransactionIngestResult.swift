/// What ``Ledger/ingest(transaction:jwsRepresentation:customerID:decide:)`` (or a retry) did
/// with one transaction.
public struct TransactionIngestResult: Hashable, Sendable {
    /// How the received JWS changed what is stored.
    public enum Storage: Hashable, Sendable {
        /// The transaction was new and is now stored.
        case inserted
        /// This exact JWS was stored before; nothing changed (also the value for retries).
        case unchanged
        /// A newer version (by `signedDate`) replaced the stored fields; the previous
        /// version stays in the history.
        case updated
        /// An older or equally old version: kept in the history, the stored fields unchanged.
        case superseded
    }

    /// What happened to the transaction's grants.
    public enum Outcome: Hashable, Sendable {
        /// This call recorded the grant decision (possibly empty) and finished the transaction.
        case granted([Grant])
        /// The transaction was already finished; nothing was granted again.
        case alreadyFinished
        /// The transaction stays unfinished, for the reason given; retry it later.
        case unfinished(UnfinishedReason)
        /// This call recorded a revocation; the grants listed were reversed (none when the
        /// transaction had not been granted).
        case revoked(reversed: [Grant])
        /// This call recorded that a revocation was withdrawn; the reversed grants listed were
        /// restored.
        case revocationWithdrawn(restored: [Grant])
    }

    /// The transaction as stored after the call.
    public let transaction: StoredTransaction
    /// How the stored fields changed.
    public let storage: Storage
    /// What happened to the grants.
    public let outcome: Outcome

    /// Creates a result value.
    public init(transaction: StoredTransaction, storage: Storage, outcome: Outcome) {
        self.transaction = transaction
        self.storage = storage
        self.outcome = outcome
    }
}
