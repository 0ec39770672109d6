import StoreCore

/// The ledger in a PostgreSQL database that several processes and machines share.
///
/// Reads run in `REPEATABLE READ` transactions (one snapshot each); writes in
/// `READ COMMITTED` ones, the server's default, where the ledger's rules hold by row locks
/// and conflict-free inserts rather than a global lock (see ``StoreCore/SQLLedgerTransaction``).
/// A transaction that fails with a transient error — a serialization failure, a deadlock, a
/// lost connection — runs again from the start on a healthy connection, with backoff; a
/// permanent error is thrown at once, and so is a server that did not answer within its
/// deadline (``PostgresTimeouts``).
public final class PostgresLedgerStorage: LedgerStorage {
    private let pool: PostgresConnectionPool
    private let retry: Backoff

    /// The statements sent to the server so far, each a round trip (the schema's included).
    public var roundTrips: Int { pool.roundTrips.count }

    /// How many connections a storage opens by default.
    public static let defaultConnectionCount = 4

    /// Connects to the database at `url` (`postgres://` or `postgresql://`) and brings its
    /// ledger schema up to date; several processes may do so at once. Every exchange with the
    /// server is bounded by `timeouts`: past one, the call fails with a transient
    /// ``StoreCore/LedgerStorageFailure`` saying the database did not answer in time, and the
    /// connection is replaced.
    ///
    /// - Throws: ``PostgresError`` when the server cannot be reached or refuses the schema.
    public init(url: String, connections: Int = defaultConnectionCount, retry: Backoff = .postgresTransaction,
                timeouts: PostgresTimeouts = PostgresTimeouts()) throws {
        pool = try PostgresConnectionPool(url: url, size: connections, timeouts: timeouts)
        self.retry = retry
        try retry.runRetryingTransientErrors {
            try pool.withConnection { try PostgresLedgerMigrationHost(connection: $0).migrate() }
        }
    }

    public func read<T>(_ body: (any LedgerReading) throws -> T) throws -> T {
        try pool.transaction(.repeatableRead, retry: retry) { try body(SQLLedgerTransaction(connection: $0)) }
    }

    public func write<T>(durability: LedgerWriteDurability, _ body: (any LedgerWriting) throws -> T) throws -> T {
        try pool.transaction(.readCommitted, retry: retry) { connection in
            if durability == .committed {
                // Sent with the transaction's first statement; it ends with the transaction.
                try connection.send("SET LOCAL synchronous_commit = off", [])
            }
            return try body(SQLLedgerTransaction(connection: connection))
        }
    }

    /// The claimed transaction and the claim's refusal in one statement, one round trip,
    /// outside any transaction.
    public func claimedTransaction(_ claim: TransactionClaim) throws -> ClaimedTransaction {
        try retry.runRetryingTransientErrors { try pool.withConnection { try SQLLedgerTransaction(connection: $0).claimedTransaction(claim) } }
    }

    /// The snapshot in one statement, one round trip, outside any transaction.
    public func customerSnapshot(customerID: String) throws -> CustomerSnapshot {
        try retry.runRetryingTransientErrors {
            try pool.withConnection { try SQLLedgerTransaction(connection: $0).customerSnapshotInOneStatement(customerID: customerID) }
        }
    }
}
