import Foundation

extension Ledger {
    /// Stores a verified transaction for `customerID` and grants it once.
    ///
    /// See ``Ledger`` for the order of the steps. `decide` is called only while the transaction
    /// is unfinished and not revoked; it may be called again for the same transaction (a
    /// retry, or two threads delivering it at once), and its result is recorded at most once.
    ///
    /// - Parameters:
    ///   - payload: the decoded, verified transaction.
    ///   - jwsRepresentation: the signed JWS it was decoded from, stored verbatim.
    ///   - customerID: the customer who owns the transaction; recorded when new.
    ///   - decide: the grants for the transaction (the policy's `grant` hook).
    /// - Returns: the stored transaction and what this call did.
    /// - Throws: ``LedgerError`` for an invalid payload, an empty customer id, a transaction
    ///   already stored with another customer, product, kind, purchase date, quantity or
    ///   environment (nothing is stored then), or a storage failure. An error from `decide` is
    ///   not thrown: it is recorded as the unfinished reason.
    @discardableResult
    public func ingest(
        transaction payload: JWSTransactionDecodedPayload,
        jwsRepresentation: String,
        customerID: String,
        decide: (StoredTransaction) throws -> [Grant]
    ) throws -> TransactionIngestResult {
        try CustomerID.validated(customerID)
        let received = try Self.receivedTransaction(payload, jwsRepresentation: jwsRepresentation, customerID: customerID)
        let now = Self.nowInMilliseconds()
        return try writing { ledger in
            let stored = try Self.store(received, at: now, in: ledger)
            guard case .unfinished = stored.transaction.grantState else {
                return TransactionIngestResult(
                    transaction: stored.transaction, storage: stored.storage, outcome: stored.revocation ?? .alreadyFinished)
            }
            return try Self.recordDecision(for: stored.transaction, storage: stored.storage, decide: decide, in: ledger)
        }
    }

    /// Asks `decide` again for every unfinished transaction (of one customer, or of all) and
    /// records the decisions, in purchase order.
    ///
    /// A transaction whose decision fails again stays unfinished with the new reason; one that
    /// another thread finished meanwhile is reported as ``TransactionIngestResult/Outcome/alreadyFinished``.
    /// The results' storage is ``TransactionIngestResult/Storage/unchanged``.
    @discardableResult
    public func retryUnfinished(
        customerID: String? = nil,
        decide: (StoredTransaction) throws -> [Grant]
    ) throws -> [TransactionIngestResult] {
        try unfinishedTransactions(customerID: customerID).map {
            try attemptGrant($0, storage: .unchanged, decide: decide)
        }
    }

    /// Stores a verified renewal info, replacing the stored one for the same original
    /// transaction id only when this one was signed later.
    ///
    /// - Throws: ``LedgerError`` when the payload lacks `originalTransactionId` or `signedDate`.
    @discardableResult
    public func ingest(
        renewalInfo payload: JWSRenewalInfoDecodedPayload,
        jwsRepresentation: String
    ) throws -> RenewalInfoIngestResult {
        let received = try Self.receivedRenewalInfo(payload, jwsRepresentation: jwsRepresentation)
        let now = Self.nowInMilliseconds()
        return try writing { ledger in
            let existing = try ledger.renewalInfo(originalTransactionID: received.originalTransactionID)
            if let existing, existing.signedDate >= received.signedDate {
                return .kept(existing)
            }
            let replaced = try ledger.upsertRenewalInfo(received, storedDate: now)
            guard let stored = try ledger.renewalInfo(originalTransactionID: received.originalTransactionID) else {
                throw LedgerError.storage(LedgerStorageFailure(
                    message: "the renewal info of \(received.originalTransactionID) was not stored", isTransient: true))
            }
            guard replaced else { return .kept(stored) }
            return existing == nil ? .inserted(stored) : .replaced(stored)
        }
    }

    /// Processes an App Store Server Notification once: ingests the transaction and renewal
    /// info it carries, then records its UUID.
    ///
    /// A notification whose UUID was processed before returns ``NotificationIngestResult/alreadyProcessed``
    /// and changes nothing. The transaction's customer is `customerID` when given; otherwise
    /// the customer of a stored transaction with the same original transaction id, or else the
    /// customer registered with the transaction's app account token. When none is known, the
    /// notification is **kept, not refused** (``NotificationIngestResult/pending(reason:)``):
    /// Apple stops retrying at some point, so refusing would lose it. A transaction left
    /// unfinished by `decide` still marks the notification processed: the transaction is
    /// stored, and ``retryUnfinished(customerID:decide:)`` grants it.
    ///
    /// - Parameters:
    ///   - notification: the decoded, verified notification.
    ///   - transaction: the decoded, verified `data.signedTransactionInfo`, when it has one.
    ///   - renewalInfo: the decoded, verified `data.signedRenewalInfo`, when it has one.
    ///   - customerID: the customer, when the caller knows it.
    ///   - decide: the grants for the transaction.
    /// - Throws: ``LedgerError/missingNotificationUUID``; ``LedgerError/notificationPayloadMismatch(_:)``
    ///   when a decoded payload is given without its signed data in the notification or the
    ///   reverse; and what the transaction and renewal info ingests throw. The UUID is recorded only when
    ///   everything succeeded, so a failed notification can be delivered again. A transaction
    ///   that contradicts the stored one is not thrown: the notification is kept as a conflict
    ///   (``NotificationIngestResult/conflict(reason:)``), unless this call joins a write
    ///   already open, which it then fails.
    @discardableResult
    public func ingest(
        notification: ResponseBodyV2DecodedPayload,
        transaction: JWSTransactionDecodedPayload?,
        renewalInfo: JWSRenewalInfoDecodedPayload?,
        customerID: String? = nil,
        decide: (StoredTransaction) throws -> [Grant]
    ) throws -> NotificationIngestResult {
        do {
            return try ingestOnce(notification: notification, transaction: transaction, renewalInfo: renewalInfo,
                                  customerID: customerID, decide: decide)
        } catch LedgerError.conflictingTransaction(let transactionID, let field, let stored, let received) {
            guard OpenWrite.joinable(by: self) == nil, let uuid = notification.notificationUUID,
                  let jws = notification.data?.signedTransactionInfo
            else { throw LedgerError.conflictingTransaction(transactionID: transactionID, field: field, stored: stored, received: received) }
            let conflict = NotificationConflict(
                uuid: uuid, type: notification.notificationType?.rawValue, subtype: notification.subtype?.rawValue,
                transactionID: transactionID, field: field, stored: stored, received: received, transactionJWS: jws,
                receivedDate: Self.nowInMilliseconds())
            try writing { ledger in
                _ = try ledger.insertNotificationConflict(conflict)
                _ = try ledger.insertProcessedNotification(ProcessedNotification(
                    uuid: uuid, type: conflict.type, subtype: conflict.subtype,
                    signedDate: notification.signedDate?.millisecondsSince1970, processedDate: conflict.receivedDate))
            }
            return .conflict(reason: LedgerError.conflictingTransaction(
                transactionID: transactionID, field: field, stored: stored, received: received).description
                + "; kept for an operator, nothing stored")
        }
    }

    /// The notification ingested in one write, as ``ingest(notification:transaction:renewalInfo:customerID:decide:)`` says.
    private func ingestOnce(
        notification: ResponseBodyV2DecodedPayload,
        transaction: JWSTransactionDecodedPayload?,
        renewalInfo: JWSRenewalInfoDecodedPayload?,
        customerID: String?,
        decide: (StoredTransaction) throws -> [Grant]
    ) throws -> NotificationIngestResult {
        guard let uuid = notification.notificationUUID, !uuid.isEmpty else {
            throw LedgerError.missingNotificationUUID
        }
        let signedTransaction = try Self.pair(
            transaction, notification.data?.signedTransactionInfo, field: "signedTransactionInfo")
        let signedRenewalInfo = try Self.pair(
            renewalInfo, notification.data?.signedRenewalInfo, field: "signedRenewalInfo")
        // One write for the whole notification: its transaction, renewal info and UUID commit together.
        return try writing { ledger in
            if try ledger.isNotificationProcessed(uuid) {
                return .alreadyProcessed
            }
            if let signedRenewalInfo {
                _ = try Self.receivedRenewalInfo(signedRenewalInfo.payload, jwsRepresentation: signedRenewalInfo.jws)
            }
            var transactionResult: TransactionIngestResult?
            if let signedTransaction {
                guard let owner = try customerID ?? resolveCustomer(of: signedTransaction.payload) else {
                    return try keepPending(notification, uuid: uuid, transaction: signedTransaction, renewalInfo: signedRenewalInfo)
                }
                transactionResult = try ingest(
                    transaction: signedTransaction.payload, jwsRepresentation: signedTransaction.jws,
                    customerID: owner, decide: decide)
            }
            let renewalResult = try signedRenewalInfo.map {
                try ingest(renewalInfo: $0.payload, jwsRepresentation: $0.jws)
            }
            let recorded = try ledger.insertProcessedNotification(ProcessedNotification(
                uuid: uuid, type: notification.notificationType?.rawValue, subtype: notification.subtype?.rawValue,
                signedDate: notification.signedDate?.millisecondsSince1970, processedDate: Self.nowInMilliseconds()))
            // Another writer recorded the UUID meanwhile: what this call changed is still reported.
            guard recorded || transactionResult?.changedTheLedger == true else { return .alreadyProcessed }
            return .processed(transaction: transactionResult, renewalInfo: renewalResult)
        }
    }

    // MARK: - Granting

    /// Asks `decide` again for one unfinished transaction and records the decision, in one
    /// write that holds the transaction's row, unless another writer finished it meanwhile.
    private func attemptGrant(
        _ transaction: StoredTransaction,
        storage: TransactionIngestResult.Storage,
        decide: (StoredTransaction) throws -> [Grant]
    ) throws -> TransactionIngestResult {
        try writing { ledger in
            let current = try Self.requireLockedTransaction(id: transaction.id, in: ledger)
            guard case .unfinished = current.grantState else {
                return TransactionIngestResult(transaction: current, storage: storage, outcome: .alreadyFinished)
            }
            return try Self.recordDecision(for: current, storage: storage, decide: decide, in: ledger)
        }
    }

    /// Asks `decide` for a transaction stored unfinished in the open write `ledger` (its reads
    /// of this ledger join that write, so they see the transaction), and records the grants,
    /// the balances and the finished state, or the reason it stays unfinished.
    private static func recordDecision(
        for transaction: StoredTransaction,
        storage: TransactionIngestResult.Storage,
        decide: (StoredTransaction) throws -> [Grant],
        in ledger: any LedgerWriting
    ) throws -> TransactionIngestResult {
        let decision: Result<[Grant], DecisionFailure>
        do {
            let grants = try decide(transaction)
            do {
                try grants.forEach { try $0.validate() }
                decision = .success(grants)
            } catch {
                decision = .failure(DecisionFailure(reason: .invalidGrant(String(describing: error))))
            }
        } catch {
            decision = .failure(DecisionFailure(reason: .decisionFailed(String(describing: error))))
        }
        let now = nowInMilliseconds()
        let outcome: TransactionIngestResult.Outcome
        var recorded = transaction
        switch decision {
        case .success(let grants):
            try ledger.insertGrants(grants, transactionID: transaction.id, grantedDate: now)
            // In item order, so two writers adjusting one customer's balances never wait on each other in a cycle.
            for grant in grants.sorted(by: { $0.item < $1.item }) {
                try ledger.adjustBalance(customerID: transaction.customerID, item: grant.item, by: grant.amount)
            }
            recorded.grantState = .granted
            outcome = .granted(grants)
        case .failure(let failure):
            recorded.grantState = .unfinished(failure.reason)
            outcome = .unfinished(failure.reason)
        }
        // The row is held: the grant state is all this write changes in it.
        try ledger.setGrantState(recorded.grantState, transactionID: transaction.id,
                                 finishedDate: recorded.grantState.isFinished ? now : nil, countsAttempt: true)
        return TransactionIngestResult(transaction: recorded, storage: storage, outcome: outcome)
    }

    /// A decision that cannot be recorded as grants.
    private struct DecisionFailure: Error {
        let reason: UnfinishedReason
    }

    // MARK: - Storing transactions

    /// What storing a received transaction did.
    private struct StoreResult {
        let transaction: StoredTransaction
        let storage: TransactionIngestResult.Storage
        let revocation: TransactionIngestResult.Outcome?
    }

    /// Stores a new transaction, or applies a newer version to the stored one under its row
    /// lock. Two writers storing the same new transaction at once: one inserts it, the other
    /// finds it stored and goes on as for a later delivery.
    private static func store(_ received: StoredTransaction, at now: Int64, in ledger: any LedgerWriting) throws -> StoreResult {
        guard let existing = try ledger.lockTransaction(id: received.id) else {
            try ledger.insertCustomer(id: received.customerID, appAccountToken: nil, createdDate: now)
            var fresh = received
            fresh.grantState = received.isRevoked ? .revokedBeforeGrant : .unfinished(.awaitingGrant)
            if try ledger.insertTransaction(fresh, storedDate: now, finishedDate: received.isRevoked ? now : nil) {
                _ = try ledger.insertVersion(received.version(receivedAt: now))
                return StoreResult(
                    transaction: try requireLockedTransaction(id: received.id, in: ledger),
                    storage: .inserted,
                    revocation: received.isRevoked ? .revoked(reversed: []) : nil)
            }
            return try storeVersion(received, of: try requireLockedTransaction(id: received.id, in: ledger), at: now, in: ledger)
        }
        return try storeVersion(received, of: existing, at: now, in: ledger)
    }

    /// Applies a received version of a stored transaction: recorded in the history, and when
    /// signed later than the stored one, its fields and revocation state taken over.
    private static func storeVersion(
        _ received: StoredTransaction, of existing: StoredTransaction, at now: Int64, in ledger: any LedgerWriting
    ) throws -> StoreResult {
        try checkUnchangeableFields(of: existing, against: received)
        guard try ledger.insertVersion(received.version(receivedAt: now)) else {
            return StoreResult(transaction: existing, storage: .unchanged, revocation: nil)
        }
        guard received.signedDate > existing.signedDate else {
            return StoreResult(transaction: existing, storage: .superseded, revocation: nil)
        }
        try ledger.updateChangeableFields(of: received)
        var revocation: TransactionIngestResult.Outcome?
        switch (existing.isRevoked, received.isRevoked, existing.grantState) {
        case (false, true, .granted):
            revocation = .revoked(reversed: try reverseGrants(of: existing, at: now, in: ledger))
        case (false, true, _):
            try ledger.setGrantState(.revokedBeforeGrant, transactionID: existing.id, finishedDate: now, countsAttempt: false)
            revocation = .revoked(reversed: [])
        case (true, false, .granted):
            revocation = .revocationWithdrawn(restored: try restoreGrants(of: existing, in: ledger))
        case (true, false, _):
            try ledger.setGrantState(.unfinished(.awaitingGrant), transactionID: existing.id, finishedDate: nil, countsAttempt: false)
        default:
            break
        }
        return StoreResult(
            transaction: try requireLockedTransaction(id: existing.id, in: ledger), storage: .updated, revocation: revocation)
    }

    /// Refuses a version that changes what never changes for one transaction.
    private static func checkUnchangeableFields(of stored: StoredTransaction, against received: StoredTransaction) throws {
        let fields: [(String, String, String)] = [
            ("customer", stored.customerID, received.customerID),
            ("originalTransactionId", stored.originalID, received.originalID),
            ("productId", stored.productID, received.productID),
            ("type", stored.productType.rawValue, received.productType.rawValue),
            ("purchaseDate", "\(stored.purchaseDate.millisecondsSince1970)", "\(received.purchaseDate.millisecondsSince1970)"),
            ("quantity", "\(stored.purchasedQuantity)", "\(received.purchasedQuantity)"),
            ("environment", stored.environment.rawValue, received.environment.rawValue),
        ]
        if let (field, storedValue, receivedValue) = fields.first(where: { $0.1 != $0.2 }) {
            throw LedgerError.conflictingTransaction(
                transactionID: stored.id, field: field, stored: storedValue, received: receivedValue)
        }
    }

    /// Reverses every grant of a transaction not reversed yet, and lowers the balances.
    private static func reverseGrants(of transaction: StoredTransaction, at now: Int64, in ledger: any LedgerWriting) throws -> [Grant] {
        let unreversed = try ledger.unreversedGrants(ofTransaction: transaction.id)
        try ledger.insertReversals(positions: unreversed.map(\.position), transactionID: transaction.id, reversedDate: now)
        for (_, grant) in unreversed.sorted(by: { $0.grant.item < $1.grant.item }) {
            try ledger.adjustBalance(customerID: transaction.customerID, item: grant.item, by: -grant.amount)
        }
        return unreversed.map(\.grant)
    }

    /// Removes a transaction's reversals, and raises the balances again.
    private static func restoreGrants(of transaction: StoredTransaction, in ledger: any LedgerWriting) throws -> [Grant] {
        let restored = try ledger.reversedGrants(ofTransaction: transaction.id)
        try ledger.deleteReversals(transactionID: transaction.id)
        for grant in restored.sorted(by: { $0.item < $1.item }) {
            try ledger.adjustBalance(customerID: transaction.customerID, item: grant.item, by: grant.amount)
        }
        return restored
    }

    private static func requireLockedTransaction(id: String, in ledger: any LedgerWriting) throws -> StoredTransaction {
        guard let transaction = try ledger.lockTransaction(id: id) else {
            throw LedgerError.unknownTransaction(id)
        }
        return transaction
    }

    /// The customer of a notification's transaction: the owner of a stored transaction with
    /// its id or original id, else the customer registered with its app account token; nil
    /// when the ledger knows neither.
    func resolveCustomer(of payload: JWSTransactionDecodedPayload) throws -> String? {
        let transactionID = try Self.requiredText(payload.transactionId, "transaction", "transactionId")
        let originalID = try Self.requiredText(payload.originalTransactionId, "transaction", "originalTransactionId")
        return try reading { ledger -> String? in
            if let owner = try ledger.ownerOfTransaction(id: transactionID, originalID: originalID) {
                return owner
            }
            guard let token = payload.appAccountToken.flatMap(AppAccountToken.init) else { return nil }
            return try ledger.customerID(appAccountToken: token.description)
        }
    }
}

extension StoredTransaction {
    /// This transaction's signed form as a version of its history, received at `now`.
    func version(receivedAt now: Int64) -> TransactionVersion {
        TransactionVersion(
            transactionID: id, jwsRepresentation: jwsRepresentation, signedDate: signedDate, revocationDate: revocationDate,
            receivedDate: Date(millisecondsSince1970: now))
    }
}

extension TransactionIngestResult {
    /// Whether this ingest stored something new or granted, revoked or restored grants.
    var changedTheLedger: Bool {
        switch (storage, outcome) {
        case (.inserted, _), (.updated, _), (_, .granted), (_, .revoked), (_, .revocationWithdrawn): true
        default: false
        }
    }
}
