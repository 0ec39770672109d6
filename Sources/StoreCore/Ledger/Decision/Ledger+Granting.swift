import Foundation

extension Ledger {
    /// How many times in a row the ledger decides a transaction's grant when the transaction
    /// changes between each decision and its write, before it gives up with
    /// ``LedgerError/decisionOutpaced(transactionID:attempts:)``.
    public static let maximumDecisionAttempts = 4

    /// What a write that holds a transaction's row found: the transaction settled, or changed
    /// since its decision (or undecided), so that it is decided again.
    enum Settlement {
        case settled(TransactionIngestResult)
        case undecided(StoredTransaction, TransactionIngestResult.Storage)
    }

    /// The transaction a decision is asked about before the write that stores `received`: the
    /// received one when it is new and not revoked, the stored one when it is unfinished and
    /// `received` does not replace it. Nil when that write leaves nothing to decide, or changes
    /// what a decision sees; then the decision follows the write.
    static func decisionBasis(for received: StoredTransaction, existing: StoredTransaction?) -> StoredTransaction? {
        guard let existing else { return received.isRevoked ? nil : received }
        guard case .unfinished = existing.grantState, received.signedDate <= existing.signedDate else { return nil }
        return existing
    }

    /// Asks `decide` about `basis` with no storage transaction, lock or connection held. When
    /// `basis` is not stored yet, this ledger's reads on this thread during the call see it as
    /// stored, with its customer known.
    func decision(
        about basis: StoredTransaction, isStored: Bool, at now: Int64, decide: (StoredTransaction) throws -> [Grant]
    ) -> GrantDecision {
        guard !isStored else { return .asking(decide, about: basis) }
        let scope = ReceivedTransactionScope(ledger: ObjectIdentifier(self), received: basis, now: now)
        return ReceivedTransactionScope.$current.withValue(scope) { .asking(decide, about: basis) }
    }

    /// Stores a received transaction and settles it in the open write: inserted already decided
    /// when it is new and `decision` holds for it, else stored and settled as
    /// ``settle(_:decision:in:)`` says; undecided when it must be decided again.
    static func storeAndSettle(
        _ received: StoredTransaction, existing: StoredTransaction?, decision: GrantDecision?, at now: Int64,
        in ledger: any LedgerWriting
    ) throws -> Settlement {
        if existing == nil, let decision, let result = try insertDecided(received, decision: decision, at: now, in: ledger) {
            return .settled(result)
        }
        let stored = try store(received, at: now, in: ledger)
        guard let result = try settle(stored, decision: decision, in: ledger) else {
            return .undecided(stored.transaction, stored.storage)
        }
        return .settled(result)
    }

    /// Settles a transaction the open write holds: a finished one as it is, an unfinished one
    /// with `decision` when the decision still holds for it; nil when it must be decided again.
    static func settle(_ stored: StoreResult, decision: GrantDecision?, in ledger: any LedgerWriting) throws -> TransactionIngestResult? {
        guard case .unfinished = stored.transaction.grantState else {
            return TransactionIngestResult(
                transaction: stored.transaction, storage: stored.storage, outcome: stored.revocation ?? .alreadyFinished)
        }
        guard let decision, decision.holds(for: stored.transaction) else { return nil }
        return try record(decision, for: stored.transaction, storage: stored.storage, in: ledger)
    }

    /// Decides and records the grant of a stored transaction: `decide` runs with nothing held,
    /// then a write holds the transaction's row and records the decision if it still holds;
    /// when the transaction changed meanwhile it is decided again, at most
    /// ``maximumDecisionAttempts`` times. `finishing` runs in the write that settles it, and
    /// the outgoing events of the change are recorded there, with `cause`.
    ///
    /// - Throws: ``LedgerError/decisionOutpaced(transactionID:attempts:)`` past the bound (the
    ///   transaction stays unfinished, to retry); a storage failure.
    func grant(
        _ transaction: StoredTransaction, storage: TransactionIngestResult.Storage,
        decide: (StoredTransaction) throws -> [Grant], cause: OutgoingEventCause,
        finishing: (any LedgerWriting) throws -> Void = { _ in }
    ) throws -> TransactionIngestResult {
        var basis = transaction
        for _ in 0..<Self.maximumDecisionAttempts {
            let decision = GrantDecision.asking(decide, about: basis)
            let settlement = try writing { ledger -> Settlement in
                let current = try Self.requireLockedTransaction(id: basis.id, in: ledger)
                let held = StoreResult(transaction: current, storage: storage, revocation: nil)
                guard let result = try Self.settle(held, decision: decision, in: ledger) else {
                    return .undecided(current, storage)
                }
                try finishing(ledger)
                try recordOutgoingEvents(of: current.customerID, settling: [result], cause: cause, in: ledger)
                return .settled(result)
            }
            switch settlement {
            case .settled(let result):
                return result
            case .undecided(let current, _):
                basis = current
            }
        }
        throw LedgerError.decisionOutpaced(transactionID: transaction.id, attempts: Self.maximumDecisionAttempts)
    }

    /// Records a decision for the transaction the open write holds: the grants, the balances and
    /// the finished state, or the reason it stays unfinished.
    private static func record(
        _ decision: GrantDecision, for transaction: StoredTransaction, storage: TransactionIngestResult.Storage,
        in ledger: any LedgerWriting
    ) throws -> TransactionIngestResult {
        let now = nowInMilliseconds()
        let (recorded, outcome) = try recordGrants(of: decision, for: transaction, at: now, in: ledger)
        // The row is held: the grant state is all this write changes in it.
        try ledger.setGrantState(recorded.grantState, transactionID: transaction.id,
                                 finishedDate: recorded.grantState.isFinished ? now : nil, countsAttempt: true)
        return TransactionIngestResult(transaction: recorded, storage: storage, outcome: outcome)
    }

    /// Stores a transaction no write has stored yet already settled by `decision`, when this
    /// write is the first to store it: one insert carries its grant state and attempt, beside its
    /// version, grants and balances, and the write holds the inserted row. Nil when the decision
    /// is not about this version, or another write stored the transaction first; then the write
    /// goes on as for a stored transaction.
    static func insertDecided(
        _ received: StoredTransaction, decision: GrantDecision, at now: Int64, in ledger: any LedgerWriting
    ) throws -> TransactionIngestResult? {
        guard !received.isRevoked, decision.holds(for: received) else { return nil }
        try ledger.insertCustomer(id: received.customerID, appAccountToken: nil, createdDate: now)
        var decided = received
        decided.grantState = decidedState(of: decision)
        guard try ledger.insertTransaction(
            decided, storedDate: now, finishedDate: decided.grantState.isFinished ? now : nil, grantAttempts: 1)
        else { return nil }
        try ledger.insertFirstVersion(received.version(receivedAt: now))
        let (recorded, outcome) = try recordGrants(of: decision, for: received, at: now, in: ledger)
        return TransactionIngestResult(transaction: recorded, storage: .inserted, outcome: outcome)
    }

    /// The grant state a decision leaves its transaction in.
    private static func decidedState(of decision: GrantDecision) -> GrantState {
        switch decision.outcome {
        case .success: .granted
        case .failure(let failure): .unfinished(failure.reason)
        }
    }

    /// Records a decision's grants and balances for `transaction`; returns the transaction in
    /// the state the decision leaves it, and the outcome.
    private static func recordGrants(
        of decision: GrantDecision, for transaction: StoredTransaction, at now: Int64, in ledger: any LedgerWriting
    ) throws -> (StoredTransaction, TransactionIngestResult.Outcome) {
        var recorded = transaction
        recorded.grantState = decidedState(of: decision)
        switch decision.outcome {
        case .success(let grants):
            try ledger.insertGrants(grants, transactionID: transaction.id, grantedDate: now)
            try ledger.adjustBalances(customerID: transaction.customerID, by: Grant.totals(grants))
            return (recorded, .granted(grants))
        case .failure(let failure):
            return (recorded, .unfinished(failure.reason))
        }
    }
}
