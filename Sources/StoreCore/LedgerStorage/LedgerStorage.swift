/// Where a ``Ledger`` keeps its records: a database behind explicit read and write
/// transactions.
///
/// The ledger's rules (validate, store, decide, grant, finish; revocations and refunds) live
/// in ``Ledger`` and run the same over every storage. A storage gives them:
/// - ``read(_:)``: a consistent snapshot for the whole closure;
/// - ``write(_:)``: a transaction whose changes commit together or not at all, and whose
///   ``LedgerWriting/lockTransaction(id:)`` holds the row against concurrent writers (on
///   PostgreSQL `SELECT … FOR UPDATE`; under SQLite's `BEGIN IMMEDIATE`, where one writer runs
///   at a time, nothing more is needed). A storage may run a write's closure again after a
///   transient failure (a serialization failure, a deadlock, a lost connection), so the closure
///   must only read and write through its argument;
/// - ``customerSnapshot(customerID:)`` and ``claimedTransaction(_:)``: the reads every
///   storefront and every ingest makes, which a storage whose statements are round trips answers in one
///   statement (the defaults read them in a read transaction).
///
/// Errors a storage throws are its own; the ledger reports them as ``LedgerError/storage(_:)``,
/// keeping their kind when they give it (``LedgerStorageErrorClassifying``).
public protocol LedgerStorage: Sendable {
    /// Runs `body` in a read-only transaction that sees one moment of the ledger.
    func read<T>(_ body: (any LedgerReading) throws -> T) throws -> T

    /// Runs `body` in a write transaction and commits it as `durability` says; when `body` or
    /// the commit throws, nothing of it is kept.
    func write<T>(durability: LedgerWriteDurability, _ body: (any LedgerWriting) throws -> T) throws -> T

    /// A customer's snapshot without signed transactions, as a storefront, an entitlement
    /// read or a decision needs it, read at one moment; a storage whose every statement is a
    /// round trip reads it in one.
    func customerSnapshot(customerID: String) throws -> CustomerSnapshot

    /// A claimed transaction as stored and why the claim is refused, read at one moment; a
    /// storage whose every statement is a round trip reads it in one.
    func claimedTransaction(_ claim: TransactionClaim) throws -> ClaimedTransaction
}

extension LedgerStorage {
    /// Runs `body` in a write transaction and commits it to disk; when `body` or the commit
    /// throws, nothing of it is kept.
    public func write<T>(_ body: (any LedgerWriting) throws -> T) throws -> T {
        try write(durability: .disk, body)
    }

    /// The claimed transaction read in a read transaction.
    public func claimedTransaction(_ claim: TransactionClaim) throws -> ClaimedTransaction {
        try read { try $0.claimedTransaction(claim) }
    }

    /// The snapshot read in a read transaction, one read after another.
    public func customerSnapshot(customerID: String) throws -> CustomerSnapshot {
        try read { try $0.customerSnapshot(customerID: customerID, signedData: false) }
    }
}

/// Which stored transactions a query asks for, in purchase order (oldest first, ties by id).
public enum LedgerTransactionQuery: Sendable, Hashable {
    /// Every transaction of a customer.
    case customer(String)
    /// A customer's transactions for one product.
    case customerProduct(customerID: String, productID: String)
    /// Every transaction sharing an original transaction id.
    case original(String)
    /// The unfinished transactions of a customer, or of all when nil.
    case unfinished(customerID: String?)
    /// Every stored transaction.
    case all
}

/// A notification recorded as processed.
public struct ProcessedNotification: Hashable, Sendable, Codable {
    /// Its `notificationUUID`.
    public var uuid: String
    /// Its `notificationType`.
    public var type: String?
    /// Its `subtype`.
    public var subtype: String?
    /// Its `signedDate`, in epoch milliseconds.
    public var signedDate: Int64?
    /// When the ledger processed it, in epoch milliseconds.
    public var processedDate: Int64

    /// Describes a processed notification.
    public init(uuid: String, type: String?, subtype: String?, signedDate: Int64?, processedDate: Int64) {
        self.uuid = uuid
        self.type = type
        self.subtype = subtype
        self.signedDate = signedDate
        self.processedDate = processedDate
    }
}

/// The reads of one ledger transaction.
public protocol LedgerReading {
    /// The customer with this id.
    func customer(id: String) throws -> Customer?
    /// The id of the customer registered with this app account token.
    func customerID(appAccountToken: String) throws -> String?
    /// Every customer, in the order they were first recorded (ties by id).
    func customers() throws -> [Customer]
    /// The transaction with this id.
    func transaction(id: String) throws -> StoredTransaction?
    /// Why `claim` is refused, in one statement: its token is registered to another customer,
    /// or its transaction or subscription is stored for another; nil when the claim stands.
    func claimRefusal(_ claim: TransactionClaim) throws -> TransactionClaimRefusal?
    /// The claimed transaction as stored, with why the claim is refused; a reading whose every
    /// statement is a round trip reads both in one.
    func claimedTransaction(_ claim: TransactionClaim) throws -> ClaimedTransaction
    /// The transactions a query asks for, oldest purchase first.
    func transactions(_ query: LedgerTransactionQuery) throws -> [StoredTransaction]
    /// A customer's transactions, oldest purchase first, each without its signed JWS
    /// (``StoredTransaction/jwsRepresentation`` is empty): what a customer's state is worked
    /// out from, read without the kilobytes of every signature.
    func transactionsWithoutSignedData(customerID: String) throws -> [StoredTransaction]
    /// A customer's latest transaction for each product, ordered by product id.
    func latestTransactions(customerID: String) throws -> [StoredTransaction]
    /// The customer of a stored transaction with this id or this original transaction id.
    func ownerOfTransaction(id: String, originalID: String) throws -> String?
    /// Every signed version received for a transaction, oldest signature first.
    func versions(ofTransaction transactionID: String) throws -> [TransactionVersion]
    /// The grants recorded for a transaction, by position.
    func grants(ofTransaction transactionID: String) throws -> [Grant]
    /// The reversed grants of a transaction, by position.
    func reversedGrants(ofTransaction transactionID: String) throws -> [Grant]
    /// The grants of a transaction not reversed yet, with their positions.
    func unreversedGrants(ofTransaction transactionID: String) throws -> [(position: Int, grant: Grant)]
    /// When a granted transaction's grant decision was recorded, in milliseconds since 1970;
    /// nil for a transaction not stored or not granted.
    func grantedDate(ofTransaction transactionID: String) throws -> Int64?
    /// A customer's balance of every item whose balance is not zero.
    func balances(customerID: String) throws -> [String: Int]
    /// The renewal info stored for a subscription.
    func renewalInfo(originalTransactionID: String) throws -> StoredRenewalInfo?
    /// Whether a notification with this UUID was recorded as processed.
    func isNotificationProcessed(_ notificationUUID: String) throws -> Bool
    /// Every renewal info stored, by original transaction id.
    func renewalInfos() throws -> [StoredRenewalInfo]
    /// Every notification recorded as processed, by UUID.
    func processedNotifications() throws -> [ProcessedNotification]
    /// Every notification kept for a customer not known yet, oldest first.
    func pendingNotifications() throws -> [PendingNotification]
    /// Every notification kept because its transaction contradicts the stored one, oldest first.
    func notificationConflicts() throws -> [NotificationConflict]
    /// A customer's events by name: how many, the latest, and the latest
    /// ``EventSummary/recentLimit`` times, newest first.
    func eventSummaries(customerID: String) throws -> [String: EventSummary]
    /// The names of a customer's merchandising events, each once.
    func eventNames(customerID: String) throws -> Set<String>
    /// Every event recorded, by customer, then time (for copies).
    func events() throws -> [MerchandisingEvent]
    /// The reconciliation mark of `kind` under `key`, if one was set.
    func reconciliationMark(kind: ReconciliationMark.Kind, key: String) throws -> ReconciliationMark?
    /// Every reconciliation mark, by kind then key (for copies).
    func reconciliationMarks() throws -> [ReconciliationMark]
    /// Every refund request kept, oldest first.
    func consumptionRequests() throws -> [ConsumptionRequestRecord]
    /// The pending refund requests whose next attempt is due at `now`, oldest first.
    func dueConsumptionRequests(at now: Int64) throws -> [ConsumptionRequestRecord]
    /// Every renewal extension request, by incident, product, then subscription.
    func renewalExtensions() throws -> [RenewalExtensionRecord]
    /// A customer's exposures to experiments, by exposure time, then experiment and phase.
    func exposures(customerID: String) throws -> [ExperimentExposure]
    /// Every exposure recorded, by customer, experiment, then phase (for copies).
    func exposures() throws -> [ExperimentExposure]
    /// The phase records of `experiment`, or of every experiment when nil, by experiment, then
    /// when each phase was first recorded.
    func experimentPhases(experiment: String?) throws -> [ExperimentPhaseRecord]
    /// A part of what a report of an experiment's phase counts for each horizon, aggregated in
    /// the database (see ``Ledger/experimentAggregates(experiment:phase:horizons:asOf:revenueCapPercentile:rates:)``).
    func experimentAggregates(_ query: ExperimentAggregatesQuery, counting part: ExperimentAggregatesPart) throws -> ExperimentAggregateFigures
    /// The events subscription metrics are made of, counted per day, kind and currency (see
    /// ``Ledger/subscriptionMetrics(_:)``).
    func subscriptionMetricEvents(_ query: SubscriptionMetricsQuery) throws -> [SubscriptionMetricEvent]
    /// The outgoing events `query` selects, the latest first.
    func outgoingEvents(_ query: OutgoingEventQuery) throws -> [OutgoingEvent]
    /// Up to `limit` customers whose reported state the clock changes by `now` (epoch milliseconds).
    func customersToReview(at now: Int64, limit: Int) throws -> [String]
    /// How the outbox stands at `now` (epoch milliseconds).
    func outgoingEventBacklog(at now: Int64) throws -> OutgoingEventBacklog
    /// Every customer's row beside the outbox, by customer id.
    func outgoingEventStates() throws -> [OutgoingEventStateRecord]
    /// Whether any customer has a row beside the outbox: whether the ledger records outgoing events.
    func hasOutgoingEventStates() throws -> Bool
}

/// The writes of one ledger transaction, beside its reads.
public protocol LedgerWriting: LedgerReading {
    /// The customer's row beside the outbox, held as ``lockOutgoingEventState(customerID:)``
    /// holds it, then what their reported state (``ReportedCustomerState``) is derived from, as
    /// this write sees it once the row is held: every transaction that can speak for their
    /// entitlements and subscription statuses, not their whole history. In one round trip where
    /// statements are round trips.
    func holdOutgoingEventState(customerID: String) throws -> HeldOutgoingEventState
    /// The transaction with this id, its row held for this write until it commits.
    func lockTransaction(id: String) throws -> StoredTransaction?
    /// Records a customer unless one with this id exists.
    func insertCustomer(id: String, appAccountToken: String?, createdDate: Int64) throws
    /// Gives a customer who has none an app account token; returns whether it was given
    /// (false when the customer has a token already, perhaps from a concurrent writer).
    func setAppAccountToken(_ token: String, customerID: String) throws -> Bool
    /// Stores a new transaction with its grant state and the number of grant attempts made,
    /// unless one with its id exists; returns whether it was stored (and is held by this write).
    func insertTransaction(_ transaction: StoredTransaction, storedDate: Int64, finishedDate: Int64?, grantAttempts: Int) throws -> Bool
    /// Records a signed version of a transaction unless the same JWS was recorded; returns
    /// whether it was new.
    func insertVersion(_ version: TransactionVersion) throws -> Bool
    /// Records the first version of a transaction this write inserted, which no write can have
    /// recorded; nothing reads its result, so a storage may send it with a later statement.
    func insertFirstVersion(_ version: TransactionVersion) throws
    /// Replaces the fields a newer signed version may change: subscription group, dates,
    /// revocation, upgrade, ownership, offer, token, signed date and JWS.
    func updateChangeableFields(of transaction: StoredTransaction) throws
    /// Sets a transaction's grant state (and unfinished reason); `finishedDate` is recorded
    /// with it (nil clears it), and `countsAttempt` adds one to its grant attempts.
    func setGrantState(_ state: GrantState, transactionID: String, finishedDate: Int64?, countsAttempt: Bool) throws
    /// Records the grants of a transaction at positions 0, 1, …
    func insertGrants(_ grants: [Grant], transactionID: String, grantedDate: Int64) throws
    /// Marks grants of a transaction reversed.
    func insertReversals(positions: [Int], transactionID: String, reversedDate: Int64) throws
    /// Removes every reversal of a transaction's grants.
    func deleteReversals(transactionID: String) throws
    /// Adds each amount (possibly negative) to a customer's balance of its item, in one
    /// statement, in item order (so two writers adjusting one customer's balances never wait
    /// on each other in a cycle).
    func adjustBalances(customerID: String, by amounts: [String: Int]) throws
    /// Records an event of a customer the ledger knows.
    func insertEvent(_ event: MerchandisingEvent) throws
    /// Stores renewal info, replacing the one stored for the same subscription only when this
    /// one was signed later, in one statement; returns whether it was stored.
    func upsertRenewalInfo(_ renewalInfo: StoredRenewalInfo, storedDate: Int64) throws -> Bool
    /// Records a notification as processed unless its UUID is; returns whether it was new.
    func insertProcessedNotification(_ notification: ProcessedNotification) throws -> Bool
    /// Keeps a notification for a customer not known yet, unless its UUID is kept; returns
    /// whether it was new.
    func insertPendingNotification(_ notification: PendingNotification) throws -> Bool
    /// Forgets a kept notification, once it is processed.
    func deletePendingNotification(uuid: String) throws
    /// Keeps a notification whose transaction contradicts the stored one, unless its UUID is
    /// kept; returns whether it was new.
    func insertNotificationConflict(_ conflict: NotificationConflict) throws -> Bool
    /// Sets a reconciliation mark, replacing the one of its kind and key.
    func upsertReconciliationMark(_ mark: ReconciliationMark) throws
    /// Keeps a refund request unless its notification's UUID is kept; returns whether it was new.
    func insertConsumptionRequest(_ request: ConsumptionRequestRecord) throws -> Bool
    /// Holds a pending request due at `now` until `heldUntil`, in one statement; returns the
    /// request, or nil when it is not pending and due.
    func claimConsumptionRequest(notificationUUID: String, at now: Int64, heldUntil: Int64) throws -> ConsumptionRequestRecord?
    /// Writes a request's state, answer, policy version, attempts, failure, next attempt and
    /// answer date while it is pending; returns whether it was (an attempt that lost its hold
    /// finds it ended by another and changes nothing).
    func updateConsumptionRequest(_ request: ConsumptionRequestRecord) throws -> Bool
    /// Makes the pending, undecided requests about `transactionID` due at `now`, except one an
    /// attempt holds (due again by `heldBefore` or sooner); returns how many.
    func hastenConsumptionRequests(transactionID: String, at now: Int64, heldBefore: Int64) throws -> Int
    /// Records a renewal extension request, replacing the one with its request identifier.
    func upsertRenewalExtension(_ record: RenewalExtensionRecord) throws
    /// Stores each exposure, of a customer the ledger knows, unless its customer has one for
    /// its experiment and phase, in one statement; the stored one stays as it is. Returns the
    /// keys of the exposures this statement stored.
    @discardableResult
    func insertExposures(_ exposures: [ExperimentExposure]) throws -> Set<ExperimentExposureKey>
    /// Stores each phase record unless one of its experiment and phase is stored, in one
    /// statement; the stored one stays as it is.
    func insertExperimentPhases(_ phases: [ExperimentPhaseRecord]) throws
    /// A customer's row beside the outbox, made when missing and held for this write until it
    /// commits, so that one customer's events are numbered by one write at a time.
    func lockOutgoingEventState(customerID: String) throws -> OutgoingEventStateRow
    /// Writes a customer's last sequence number, the state last reported (JSON) and when the
    /// clock next changes it (epoch milliseconds).
    func updateOutgoingEventState(customerID: String, sequence: Int64, reported: String?, reviewDate: Int64?) throws
    /// Stores new outgoing events.
    func insertOutgoingEvents(_ events: [OutgoingEvent]) throws
    /// Holds, until `heldUntil`, up to `limit` pending events due at `now` that are the earliest
    /// undelivered of their customer and that no other write holds; returns them.
    func claimOutgoingEvents(at now: Int64, heldUntil: Int64, limit: Int) throws -> [OutgoingEvent]
    /// Records how one attempt at an event ended, counting it and releasing the hold, when the
    /// hold is still the one taken until `heldUntil` (an attempt whose hold ran out and was
    /// taken again by another records nothing).
    func recordOutgoingEventAttempt(id: String, heldUntil: Int64, _ attempt: OutgoingEventAttempt) throws
    /// Makes the events `query` selects that are not pending due again at `now`, their attempts
    /// counted again from then; returns how many.
    func requeueOutgoingEvents(_ query: OutgoingEventQuery, at now: Int64) throws -> Int
    /// Deletes at most `limit` delivered or skipped events written before `date`; returns how many.
    func deleteSentOutgoingEvents(writtenBefore date: Int64, limit: Int) throws -> Int
}

extension LedgerReading {
    /// The claimed transaction and the claim's refusal, read one after the other.
    public func claimedTransaction(_ claim: TransactionClaim) throws -> ClaimedTransaction {
        ClaimedTransaction(stored: try transaction(id: claim.transactionID), refusal: try claimRefusal(claim))
    }
}
