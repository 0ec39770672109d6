import Foundation
import StoreCore
import SQLiteLedger
import Synchronization

/// A local App Store for tests and tools, for a whole population of customers: StoreKit
/// Testing's role, outside Xcode.
///
/// The store sells the products of a ``Catalog`` under its settings (Ask to Buy, billing
/// retry, grace period, time rate), signs every transaction, renewal info and App Store Server
/// Notification V2 with a ``SigningAuthority``, and keeps its state in a database of its own,
/// so a store opened again — by another process — carries on where it was. It reaches the
/// ledger only through ``Ledger``'s ingest methods, with what it signed.
///
/// ```swift
/// let store = try LocalStore(catalog: catalog, authority: authority, ledger: ledger,
///                            state: try Database(path: "store.sqlite"),
///                            configuration: .init(bundleID: "com.example.birds",
///                                                 clock: .manual(startingAt: start)),
///                            decide: { transaction in try policy.grants(for: transaction) })
/// guard case .success(let transaction) = try store.purchase("pass.premium", customer: "ana") else { … }
/// try store.advance(by: StoreDuration(months: 3))   // three renewals
/// ```
///
/// ## What the app and the server receive
/// Everything the store signs goes through the path an app uses: it is verified with a
/// ``SignedDataVerifier`` that trusts the authority's root, then ingested into the ledger
/// (stored before it is granted; `decide` says what to grant), then announced on
/// ``updates()``. Every change also puts a signed notification in an outbox
/// (``notifications(customerID:after:)``), which ``replayNotifications(into:after:decide:)``
/// delivers to another ledger the way a server receives them. Ingesting the notifications
/// alone reproduces the ledger the transactions built, but for one mark: after an upgrade
/// (or a crossgrade that takes effect at once), the superseded transaction is signed again
/// with `isUpgraded`; the app receives that version, and — as with the App Store — no
/// notification carries it.
///
/// ## Time
/// Before each operation the store processes what its clock passed, in date order:
/// renewals (one per elapsed period), failed renewals, the end of grace periods and of billing
/// retry. ``advance(by:)`` moves the clock forward; see ``StoreClock`` and ``TimeRate``.
///
/// ## Failures
/// A refused request throws a ``LocalStoreError`` and changes nothing. Each change commits in
/// one SQLite transaction together with what it owes the app; the deliveries to the ledger
/// follow the commit, and any that fail (a ledger error) are retried before the next operation.
///
/// The store is safe to share between threads; its operations run one at a time.
public final class LocalStore: Sendable {
    /// The products the store sells.
    public let catalog: Catalog
    /// The chain the store signs with.
    public let authority: SigningAuthority
    /// The ledger the store ingests into.
    public let ledger: Ledger
    /// The store's own database: its clock, settings, transactions, subscriptions, outbox and
    /// identity, apart from the ledger.
    public let state: Database
    /// The store's configuration.
    public let configuration: Configuration
    /// The verifier every signed payload passes before it is ingested: it trusts the
    /// authority's root, for the configured bundle identifier and environment.
    public let verifier: SignedDataVerifier

    let context: StoreContext
    let decide: @Sendable (StoredTransaction) throws -> [Grant]
    let observers = Mutex<[UUID: AsyncStream<StoreUpdate>.Continuation]>([:])
    /// Serializes operations within the process (the database serializes processes).
    let serial = NSRecursiveLock()

    /// Opens the store kept in `state`, bringing its schema up to date and creating its state
    /// when the database has none.
    ///
    /// - Parameters:
    ///   - ledger: where the store delivers what it signs.
    ///   - state: the store's own database; a new store starts from an empty one.
    ///   - decide: what a transaction grants; it runs inside the ledger's write that stores
    ///     the transaction, and must not call the store.
    /// - Throws: ``LocalStoreError/emptyBundleID``; ``LocalStoreError/identityMismatch(remembered:given:)``
    ///   when the state remembers another bundle identifier or environment; ``VerifierConfigurationError``
    ///   (for example `Production` without an app Apple ID); ``DatabaseMigrationError``; ``SQLiteError``.
    public init(catalog: Catalog, authority: SigningAuthority, ledger: Ledger, state: Database,
                configuration: Configuration,
                decide: @escaping @Sendable (StoredTransaction) throws -> [Grant]) throws {
        guard !configuration.bundleID.isEmpty else { throw LocalStoreError.emptyBundleID }
        verifier = try SignedDataVerifier(
            rootCertificates: [authority.rootCertificate], bundleId: configuration.bundleID,
            appAppleId: configuration.appAppleID, environment: configuration.environment)
        self.catalog = catalog
        self.authority = authority
        self.ledger = ledger
        self.state = state
        self.configuration = configuration
        self.decide = decide
        context = StoreContext(catalog: catalog, authority: authority, configuration: configuration)
        try LocalStoreSchema.migrator.migrate(state)
        try state.write { connection in
            try StoreWriter.createState(in: connection)
            try Self.rememberIdentity(of: configuration, in: connection)
        }
    }

    /// A stream of every change the store makes from now on, in order. Each call returns a new
    /// stream; it ends when the caller stops iterating.
    public func updates() -> AsyncStream<StoreUpdate> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<StoreUpdate>.makeStream(bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in
            _ = self?.observers.withLock { $0.removeValue(forKey: id) }
        }
        observers.withLock { $0[id] = continuation }
        return stream
    }

    func announce(_ update: StoreUpdate) {
        let continuations = observers.withLock { Array($0.values) }
        for continuation in continuations { continuation.yield(update) }
    }

    /// Runs `body` with the operation lock held.
    func serially<T>(_ body: () throws -> T) rethrows -> T {
        serial.lock()
        defer { serial.unlock() }
        return try body()
    }

    /// Runs one unit of store work in one database write, then makes the deliveries it owes.
    /// Returns its result and the notifications it sent.
    func perform<T>(_ body: (StoreWriter) throws -> T) throws -> (T, [StoreNotification]) {
        let (value, first, last) = try state.write { connection in
            let first = try Self.lastNotificationSequence(in: connection) + 1
            let writer = try StoreWriter(connection: connection, context: context)
            let value = try body(writer)
            try writer.saveState()
            return (value, first, try Self.lastNotificationSequence(in: connection))
        }
        try deliverPending()
        try sendDueNotifications()
        let sent = first > last ? [] : try notifications(after: first - 1).filter { $0.sequence <= last }
        return (value, sent)
    }

    /// Makes the deliveries still owed, then processes every event the clock passed.
    func catchUp() throws -> [StoreNotification] {
        try deliverPending()
        var sent: [StoreNotification] = []
        while true {
            // Once no event is due, the same write brings win-back eligibility up to the clock.
            let (processed, notifications) = try perform { writer in
                guard try writer.processNextDueEvent() else {
                    try writer.refreshWinBackEligibilityAsTimePasses()
                    return false
                }
                return true
            }
            sent += notifications
            guard processed else { return sent }
        }
    }

    static func lastNotificationSequence(in connection: DatabaseConnection) throws -> Int {
        try connection.fetchValue(Int.self, "SELECT coalesce(max(sequence), 0) FROM local_store_notification") ?? 0
    }
}
