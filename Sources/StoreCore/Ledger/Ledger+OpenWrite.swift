extension Ledger {
    /// A write transaction of one ledger, open on the current thread (or task), which the
    /// ledger's own reads and writes join until it ends.
    ///
    /// The grant decision runs inside the write that stores the transaction, so the hook reads
    /// the customer with that transaction included and the grants commit with it, in one
    /// commit. A storage failure met by a joined read or write fails the whole write, even when
    /// the caller went on (a decision closure that caught it), so a transient failure is still
    /// retried by the storage and nothing half-read is recorded.
    final class OpenWrite: @unchecked Sendable {
        /// The write open on this thread, if any.
        @TaskLocal static var current: OpenWrite?

        private let ledger: ObjectIdentifier
        private let writer: any LedgerWriting
        /// The first storage error a joined read or write met.
        private(set) var storageFailure: (any Error)?

        init(ledger: Ledger, writer: any LedgerWriting) {
            self.ledger = ObjectIdentifier(ledger)
            self.writer = writer
        }

        /// The write of `ledger` open on this thread, if any (a write of another ledger is not).
        static func joinable(by ledger: Ledger) -> OpenWrite? {
            guard let open = current, open.ledger == ObjectIdentifier(ledger) else { return nil }
            return open
        }

        /// Runs `body` inside this write; a storage failure becomes ``LedgerError/storage(_:)``
        /// and is remembered.
        func join<T>(_ body: (any LedgerWriting) throws -> T) throws -> T {
            do {
                return try body(writer)
            } catch let error as LedgerError {
                throw error
            } catch {
                storageFailure = storageFailure ?? error
                throw LedgerError.storage(LedgerStorageFailure(error))
            }
        }
    }

    /// Runs `body` as one write transaction of `storage` that the ledger's reads and writes on
    /// this thread join; rethrows the storage's own error when a joined call met one.
    func openWrite<T>(_ body: (any LedgerWriting) throws -> T) throws -> T {
        try storage.write { writer in
            let open = OpenWrite(ledger: self, writer: writer)
            do {
                let value = try OpenWrite.$current.withValue(open) { try body(writer) }
                if let failure = open.storageFailure { throw failure }
                return value
            } catch {
                throw open.storageFailure ?? error
            }
        }
    }
}
