import Foundation
import SignedData

/// The durable record of everything a customer bought and was granted, over a
/// ``LedgerStorage``: one SQLite file (SQLiteLedger's `SQLiteLedgerStorage`), or a database that
/// several processes and machines share (PostgresLedger's).
///
/// The ledger stores customers; every transaction as its verbatim signed JWS plus the decoded
/// fields (``StoredTransaction``), with every version received; the renewal info of each
/// subscription (``StoredRenewalInfo``); the grants decided for each transaction; item balances
/// per customer; and the UUIDs of processed App Store Server Notifications.
///
/// ## Ingest, in order
/// ``ingest(transaction:jwsRepresentation:customerID:decide:)`` decides **before** it writes, so
/// that no rule runs while a storage transaction, lock or connection is held:
/// 1. a read finds the stored transaction, if any;
/// 2. the decision closure (in the product, the policy's `grant` hook) is asked what to grant,
///    on the caller's thread, with nothing held; this ledger's reads on that thread during the
///    call see the received transaction as stored, so it sees the customer with the
///    transaction included;
/// 3. **one** storage transaction stores the transaction and, under its row lock, records the
///    grants, the balance updates and the finished state — if what was decided on is still so
///    (the transaction unfinished, in the version the decision saw). When it changed meanwhile
///    (another writer stored a newer version, or finished it), the transaction is stored, and
///    decided again after that commit, at most ``maximumDecisionAttempts`` times.
///
/// The transaction and its grants become durable together, or not at all (and the sender,
/// which saw no success, delivers it again): a transaction is never finished without its
/// grants, and never granted without being stored.
///
/// Delivering the same transaction again (the purchase result and the updates stream, a
/// retry, a restart) stores it once and grants it once: grants are keyed by transaction id,
/// and step 3 grants only a transaction that is still unfinished under its row lock. When
/// the decision throws or returns an invalid ``Grant``, the transaction stays unfinished with
/// the reason recorded (``UnfinishedReason``) in the same commit, and
/// ``retryUnfinished(customerID:decide:)`` grants it once the policy is fixed.
///
/// ## Refunds and revocations
/// A newer version of a transaction (by `signedDate`) replaces the stored fields; every
/// version stays in the history (``versions(ofTransaction:)``). When a newer version carries a
/// revocation date, each of the transaction's grants gets a **reversing entry** and the
/// balances drop by the granted amounts, so a balance is always the sum of its grants minus
/// the reversed ones — and may go below zero when the customer already used the items. A
/// transaction revoked before it was granted is finished without grants
/// (``GrantState/revokedBeforeGrant``). When a later version withdraws the revocation (a
/// reversed refund), the reversing entries are removed and the balances restored, or a
/// transaction that was never granted becomes unfinished and is granted.
///
/// ## Threads
/// `Ledger` is `Sendable`: every call may come from any thread, and from any number of
/// processes on a shared storage. Each write re-reads the rows it changes under the storage's
/// row lock, so two writers delivering one transaction at once grant it once. The decision
/// closure runs on the caller's thread outside every write: a slow rule delays only its own
/// ingest, never another customer's, and it may read and write this ledger (its writes are
/// writes of their own). A write's body runs storage statements only, so a storage that runs it
/// again after a transient failure repeats no rule.
///
/// A storage failure is ``LedgerError/storage(_:)``; nothing of the storage transaction that
/// failed is kept.
public final class Ledger: Sendable {
    /// Where the records are kept.
    public let storage: any LedgerStorage
    /// How the ledger records outgoing events in the writes that change customers; nil when it
    /// records none (see ``recordingOutgoingEvents(_:)``).
    public let outgoingEvents: OutgoingEventRecording?
    /// The experiment phases this ledger saw stored, which exposures need not write again.
    let recordedPhases = RecordedExperimentPhases()

    /// Keeps the ledger in `storage`, whose schema is up to date, recording outgoing events as
    /// `outgoingEvents` says (none by default).
    public init(storage: any LedgerStorage, outgoingEvents: OutgoingEventRecording? = nil) {
        self.storage = storage
        self.outgoingEvents = outgoingEvents
    }

    // MARK: - Customers

    /// Records a customer, or returns the one already recorded with this id.
    ///
    /// An app account token is attached when given: to a new customer, or to a known customer
    /// who has none yet. It is a UUID in any case, stored and compared in its canonical lower
    /// case form (``AppAccountToken``), the form the App Store signs.
    ///
    /// - Throws: ``LedgerError/invalidCustomerID(_:)``; ``LedgerError/invalidAppAccountToken(_:)`` for a
    ///   token that is not a UUID; ``LedgerError/appAccountTokenInUse(token:customerID:)``
    ///   when another customer has the token; ``LedgerError/conflictingAppAccountToken(customerID:stored:received:)``
    ///   when this customer has another token.
    @discardableResult
    public func registerCustomer(id: String, appAccountToken: String? = nil) throws -> Customer {
        try CustomerID.validated(id)
        let appAccountToken = try appAccountToken.map { text throws(LedgerError) -> String in
            guard let token = AppAccountToken(text) else { throw .invalidAppAccountToken(text) }
            return token.description
        }
        do {
            return try storeCustomer(id: id, appAccountToken: appAccountToken)
        } catch LedgerError.storage(let failure) where appAccountToken != nil && failure.kind == .uniqueViolation(Self.appAccountTokenKey) {
            // Another writer gave the token to another customer between this write's check and
            // its change, and the storage's uniqueness refused the change: the write's premise no
            // longer holds, so it runs again, and its check names who has the token.
            return try storeCustomer(id: id, appAccountToken: appAccountToken)
        }
    }

    /// The uniqueness rule that gives an app account token to one customer.
    static let appAccountTokenKey = LedgerStorageFailure.UniqueKey(table: "customer", columns: ["app_account_token"])

    /// Records a customer and attaches a token in canonical form, as
    /// ``registerCustomer(id:appAccountToken:)`` says.
    private func storeCustomer(id: String, appAccountToken: String?) throws -> Customer {
        let now = Self.nowInMilliseconds()
        return try writing { ledger in
            if let appAccountToken, let owner = try ledger.customerID(appAccountToken: appAccountToken), owner != id {
                throw LedgerError.appAccountTokenInUse(token: appAccountToken, customerID: owner)
            }
            if let existing = try ledger.customer(id: id) {
                guard let appAccountToken, existing.appAccountToken != appAccountToken else { return existing }
                if let stored = existing.appAccountToken {
                    throw LedgerError.conflictingAppAccountToken(customerID: id, stored: stored, received: appAccountToken)
                }
                guard try ledger.setAppAccountToken(appAccountToken, customerID: id) else {
                    let stored = try ledger.customer(id: id)?.appAccountToken ?? ""
                    throw LedgerError.conflictingAppAccountToken(customerID: id, stored: stored, received: appAccountToken)
                }
            } else {
                try ledger.insertCustomer(id: id, appAccountToken: appAccountToken, createdDate: now)
            }
            guard let customer = try ledger.customer(id: id) else {
                throw LedgerError.storage(LedgerStorageFailure(message: "customer \(id) was not stored", isTransient: true))
            }
            return customer
        }
    }

    /// The customer with this id, or `nil` when the ledger does not know it.
    public func customer(id: String) throws -> Customer? {
        try reading { try $0.customer(id: id) }
    }

    /// Every customer, in the order they were first recorded.
    public func customers() throws -> [Customer] {
        try reading { try $0.customers() }
    }

    // MARK: - Storage

    /// Runs `body` in a read transaction; a storage failure becomes ``LedgerError/storage(_:)``.
    /// During a decision about a transaction this ledger received and has not stored yet, on
    /// this thread, `body` reads as if it were stored (``ReadingWithReceivedTransaction``).
    func reading<T>(_ body: (any LedgerReading) throws -> T) throws -> T {
        try reportingStorageFailures {
            guard let scope = ReceivedTransactionScope.active(for: self) else {
                return try storage.read(body)
            }
            return try storage.read { try body(ReadingWithReceivedTransaction(base: $0, received: scope.received, now: scope.now)) }
        }
    }

    /// The transaction `claim` names as stored, and why the claim is refused, in the storage's
    /// one read of them; a storage failure becomes ``LedgerError/storage(_:)``.
    func claimedTransaction(_ claim: TransactionClaim) throws -> ClaimedTransaction {
        try reportingStorageFailures { try storage.claimedTransaction(claim) }
    }

    /// Runs `body` in a write transaction; a storage failure becomes ``LedgerError/storage(_:)``.
    /// `body` reads and writes storage only: the storage may run it again after a transient
    /// failure.
    func writing<T>(durability: LedgerWriteDurability = .disk, _ body: (any LedgerWriting) throws -> T) throws -> T {
        try reportingStorageFailures { try storage.write(durability: durability, body) }
    }

    /// Runs `body`, a call of the storage: a ``LedgerError`` passes as it is, any other error
    /// becomes ``LedgerError/storage(_:)``.
    func reportingStorageFailures<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as LedgerError {
            throw error
        } catch {
            throw LedgerError.storage(LedgerStorageFailure(error))
        }
    }

    static func nowInMilliseconds() -> Int64 {
        Date().millisecondsSince1970
    }
}
