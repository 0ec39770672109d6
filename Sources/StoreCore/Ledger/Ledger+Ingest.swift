import Foundation
import SignedData

extension Ledger {
    /// Stores a verified transaction for `customerID` and grants it once.
    ///
    /// See ``Ledger`` for the steps. `decide` runs on the caller's thread with no storage
    /// transaction, lock or connection held, and only while the transaction is unfinished and not
    /// revoked; it may be called again for the same transaction (a retry, two threads delivering
    /// it at once, or the transaction changing while it decided), and its result is recorded at
    /// most once.
    ///
    /// - Parameters:
    ///   - payload: the decoded, verified transaction.
    ///   - jwsRepresentation: the signed JWS it was decoded from, stored verbatim.
    ///   - customerID: the customer who owns the transaction; recorded when new.
    ///   - decide: the grants for the transaction (the policy's `grant` hook).
    /// - Returns: the stored transaction and what this call did.
    /// - Throws: ``LedgerError`` for an invalid payload, an empty customer id, a transaction
    ///   that belongs to another customer (``LedgerError/transactionOfAnotherCustomer(transactionID:refusal:)``:
    ///   its app account token is registered to another, or it or its subscription is stored
    ///   for another), a transaction already stored with another product, kind, purchase date, quantity or
    ///   environment (nothing is stored then), a transaction that kept changing while it was
    ///   decided, or a storage failure. An error from `decide` is not thrown: it is recorded as
    ///   the unfinished reason.
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
        let claimed = try claimedTransaction(TransactionClaim(received))
        if let refusal = claimed.refusal {
            throw LedgerError.transactionOfAnotherCustomer(transactionID: received.id, refusal: refusal)
        }
        let existing = claimed.stored
        let early = Self.decisionBasis(for: received, existing: existing).map {
            decision(about: $0, isStored: existing != nil, at: now, decide: decide)
        }
        let cause = OutgoingEventCause(source: .transaction)
        let settlement = try writing { ledger -> Settlement in
            let settlement = try Self.storeAndSettle(received, existing: existing, decision: early, at: now, in: ledger)
            // A transaction stored undecided is reported as stored; its grants, by the write that records them.
            let facts: [TransactionIngestResult] = if case .settled(let result) = settlement { [result] } else { [] }
            try recordOutgoingEvents(of: customerID, settling: facts, cause: cause, in: ledger)
            return settlement
        }
        switch settlement {
        case .settled(let result):
            return result
        case .undecided(let transaction, let storage):
            return try grant(transaction, storage: storage, decide: decide, cause: cause)
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
            try grant($0, storage: .unchanged, decide: decide, cause: OutgoingEventCause(source: .retry))
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
            let result = try Self.store(renewalInfo: received, at: now, in: ledger)
            let originalID = received.originalTransactionID
            let changed = if case .kept = result { false } else { true }
            if changed, let owner = try ledger.ownerOfTransaction(id: originalID, originalID: originalID) {
                try recordOutgoingEvents(of: owner, settling: [], cause: OutgoingEventCause(source: .renewalInfo), in: ledger)
            }
            return result
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
    /// stored, and ``retryUnfinished(customerID:decide:)`` grants it. `decide` runs as for
    /// ``ingest(transaction:jwsRepresentation:customerID:decide:)``, with nothing held.
    ///
    /// - Parameters:
    ///   - notification: the decoded, verified notification.
    ///   - transaction: the decoded, verified `data.signedTransactionInfo`, when it has one.
    ///   - renewalInfo: the decoded, verified `data.signedRenewalInfo`, when it has one.
    ///   - customerID: the customer, when the caller knows it.
    ///   - decide: the grants for the transaction.
    /// - Throws: ``LedgerError/missingNotificationUUID``; ``LedgerError/notificationPayloadMismatch(_:)``
    ///   when a decoded payload is given without its signed data in the notification or the
    ///   reverse; and what the transaction and renewal info ingests throw. The UUID is recorded
    ///   only with the transaction settled, so a notification that failed can be delivered
    ///   again. A transaction that contradicts the stored one is not thrown: the notification is
    ///   kept as a conflict (``NotificationIngestResult/conflict(reason:)``).
    @discardableResult
    public func ingest(
        notification: ResponseBodyV2DecodedPayload,
        transaction: JWSTransactionDecodedPayload?,
        renewalInfo: JWSRenewalInfoDecodedPayload?,
        customerID: String? = nil,
        decide: (StoredTransaction) throws -> [Grant]
    ) throws -> NotificationIngestResult {
        try ingest(NotificationDelivery(
            notification: notification, transaction: transaction, renewalInfo: renewalInfo, customerID: customerID,
            keptAs: nil), decide: decide)
    }

    /// A notification to process, with the customer the caller knows and the kept notification
    /// it resolves, which is forgotten in the write that records it processed.
    struct NotificationDelivery {
        let notification: ResponseBodyV2DecodedPayload
        let transaction: JWSTransactionDecodedPayload?
        let renewalInfo: JWSRenewalInfoDecodedPayload?
        let customerID: String?
        let keptAs: String?
    }

    /// Processes a notification as ``ingest(notification:transaction:renewalInfo:customerID:decide:)`` says.
    func ingest(_ delivery: NotificationDelivery, decide: (StoredTransaction) throws -> [Grant]) throws -> NotificationIngestResult {
        do {
            return try ingestOnce(delivery, decide: decide)
        } catch LedgerError.conflictingTransaction(let transactionID, let field, let stored, let received) {
            let error = LedgerError.conflictingTransaction(transactionID: transactionID, field: field, stored: stored, received: received)
            let notification = delivery.notification
            // A kept notification stays kept: the operator sees it with the other kept ones.
            guard delivery.keptAs == nil, let uuid = notification.notificationUUID,
                  let jws = notification.data?.signedTransactionInfo
            else { throw error }
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
            return .conflict(reason: error.description + "; kept for an operator, nothing stored")
        }
    }

    /// What a notification's first write did: everything, or all but deciding its transaction.
    private enum NotificationStep {
        case done(NotificationIngestResult)
        case undecided(StoredTransaction, TransactionIngestResult.Storage, RenewalInfoIngestResult?)
    }

    /// The notification processed: a read and a decision with nothing held, then one write that
    /// stores what it carries and, when the decision still holds, the grants and the UUID;
    /// otherwise the transaction is decided again and the UUID recorded with its grants.
    private func ingestOnce(_ delivery: NotificationDelivery, decide: (StoredTransaction) throws -> [Grant]) throws -> NotificationIngestResult {
        let notification = delivery.notification
        guard let uuid = notification.notificationUUID, !uuid.isEmpty else {
            throw LedgerError.missingNotificationUUID
        }
        let signedTransaction = try Self.pair(
            delivery.transaction, notification.data?.signedTransactionInfo, field: "signedTransactionInfo")
        let signedRenewalInfo = try Self.pair(
            delivery.renewalInfo, notification.data?.signedRenewalInfo, field: "signedRenewalInfo")
        let renewalInfo = try signedRenewalInfo.map { try Self.receivedRenewalInfo($0.payload, jwsRepresentation: $0.jws) }
        let now = Self.nowInMilliseconds()
        let processed = ProcessedNotification(
            uuid: uuid, type: notification.notificationType?.rawValue, subtype: notification.subtype?.rawValue,
            signedDate: notification.signedDate?.millisecondsSince1970, processedDate: now)

        let forgetKept = { (ledger: any LedgerWriting) throws in
            if let kept = delivery.keptAs { try ledger.deletePendingNotification(uuid: kept) }
        }

        let (isProcessed, received, existing) = try reading { ledger -> (Bool, StoredTransaction?, StoredTransaction?) in
            if try ledger.isNotificationProcessed(uuid) { return (true, nil, nil) }
            guard let signedTransaction,
                  let owner = try delivery.customerID ?? Self.customer(of: signedTransaction.payload, in: ledger)
            else { return (false, nil, nil) }
            let received = try Self.receivedTransaction(
                signedTransaction.payload, jwsRepresentation: signedTransaction.jws, customerID: owner)
            return (false, received, try ledger.transaction(id: received.id))
        }
        if isProcessed, delivery.keptAs == nil { return .alreadyProcessed }
        let early = received.flatMap { received in
            Self.decisionBasis(for: received, existing: existing).map {
                decision(about: $0, isStored: existing != nil, at: now, decide: decide)
            }
        }

        let cause = OutgoingEventCause(
            source: .notification, notificationUUID: uuid, notificationType: processed.type, subtype: processed.subtype)
        var recorded = false
        let finishing = { (ledger: any LedgerWriting) throws in
            recorded = try ledger.insertProcessedNotification(processed)
            try forgetKept(ledger)
        }
        let step = try writing { ledger -> NotificationStep in
            if try ledger.isNotificationProcessed(uuid) {
                try forgetKept(ledger)
                return .done(.alreadyProcessed)
            }
            var transactionResult: TransactionIngestResult?
            if let signedTransaction {
                guard let owner = try delivery.customerID ?? Self.customer(of: signedTransaction.payload, in: ledger) else {
                    return .done(try Self.keepPending(
                        notification, uuid: uuid, transaction: signedTransaction, renewalInfo: renewalInfo, at: now, in: ledger))
                }
                let received = try Self.receivedTransaction(
                    signedTransaction.payload, jwsRepresentation: signedTransaction.jws, customerID: owner)
                // A customer the caller names must hold the claim; one the ledger found does.
                if delivery.customerID != nil { try Self.checkClaim(of: received, in: ledger) }
                if existing == nil, let early {
                    transactionResult = try Self.insertDecided(received, decision: early, at: now, in: ledger)
                }
                if transactionResult == nil {
                    let stored = try Self.store(received, at: now, in: ledger)
                    transactionResult = try Self.settle(stored, decision: early, in: ledger)
                    guard transactionResult != nil else {
                        let renewalResult = try renewalInfo.map { try Self.store(renewalInfo: $0, at: now, in: ledger) }
                        try recordOutgoingEvents(of: owner, settling: [], cause: cause, in: ledger)
                        return .undecided(stored.transaction, stored.storage, renewalResult)
                    }
                }
            }
            let renewalResult = try renewalInfo.map { try Self.store(renewalInfo: $0, at: now, in: ledger) }
            try finishing(ledger)
            let owner = try transactionResult?.transaction.customerID ?? renewalInfo.flatMap {
                try ledger.ownerOfTransaction(id: $0.originalTransactionID, originalID: $0.originalTransactionID)
            }
            if let owner {
                try recordOutgoingEvents(of: owner, settling: transactionResult.map { [$0] } ?? [], cause: cause, in: ledger)
            }
            return .done(Self.processedResult(transactionResult, renewalResult, recorded: recorded))
        }
        switch step {
        case .done(let result):
            return result
        case .undecided(let transaction, let storage, let renewalResult):
            let result = try grant(transaction, storage: storage, decide: decide, cause: cause, finishing: finishing)
            return Self.processedResult(result, renewalResult, recorded: recorded)
        }
    }

    /// A processed notification's result; when another writer recorded the UUID first and this
    /// call changed nothing, ``NotificationIngestResult/alreadyProcessed``.
    private static func processedResult(
        _ transaction: TransactionIngestResult?, _ renewalInfo: RenewalInfoIngestResult?, recorded: Bool
    ) -> NotificationIngestResult {
        guard recorded || transaction?.changedTheLedger == true else { return .alreadyProcessed }
        return .processed(transaction: transaction, renewalInfo: renewalInfo)
    }

    /// The customer of a notification's transaction: the owner of a stored transaction with
    /// its id or original id, else the customer registered with its app account token; nil
    /// when the ledger knows neither.
    static func customer(of payload: JWSTransactionDecodedPayload, in ledger: any LedgerReading) throws -> String? {
        let transactionID = try requiredText(payload.transactionId, "transaction", "transactionId")
        let originalID = try requiredText(payload.originalTransactionId, "transaction", "originalTransactionId")
        if let owner = try ledger.ownerOfTransaction(id: transactionID, originalID: originalID) {
            return owner
        }
        guard let token = payload.appAccountToken.flatMap(AppAccountToken.init) else { return nil }
        return try ledger.customerID(appAccountToken: token.description)
    }

    /// The customer of a notification's transaction, as ``customer(of:in:)`` finds it in a read.
    func resolveCustomer(of payload: JWSTransactionDecodedPayload) throws -> String? {
        try reading { try Self.customer(of: payload, in: $0) }
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
