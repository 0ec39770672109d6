extension Ledger {
    /// A received transaction that a decision on the current thread is about, not stored yet:
    /// the ledger's reads on this thread see it as stored (``ReadingWithReceivedTransaction``)
    /// until the decision returns.
    struct ReceivedTransactionScope: Sendable {
        /// The scope of the decision running on this thread, if any.
        @TaskLocal static var current: ReceivedTransactionScope?

        /// The ledger that received the transaction.
        let ledger: ObjectIdentifier
        /// The transaction as the write will store it.
        let received: StoredTransaction
        /// When the write will store it, in epoch milliseconds.
        let now: Int64

        /// The scope open on this thread for `ledger` (a decision reading another ledger sees
        /// that ledger as it is).
        static func active(for ledger: Ledger) -> ReceivedTransactionScope? {
            guard let scope = current, scope.ledger == ObjectIdentifier(ledger) else { return nil }
            return scope
        }
    }
}
