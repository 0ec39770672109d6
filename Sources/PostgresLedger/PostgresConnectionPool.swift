import Foundation
import StoreCore

/// Up to `size` connections to one server, shared by many threads: each thread checks one out,
/// uses it alone, and checks it back in.
///
/// Connections open when they are first needed (one opens at once, so a wrong URL or a server
/// that is down fails the initializer). A connection that comes back broken — the server went
/// away, an administrator terminated its session, or the server did not answer in time — is
/// closed, and its place is filled by a fresh connection at the next checkout; one that comes
/// back inside a transaction is rolled back first.
public final class PostgresConnectionPool: @unchecked Sendable {
    /// The most connections the pool holds open at once.
    public var size: Int { pool.size }
    /// The deadlines of every connection, and of ``checkout()``'s wait
    /// (``PostgresTimeouts/checkout``).
    public let timeouts: PostgresTimeouts

    /// The connections, lent one thread at a time.
    private let pool: ConnectionPool<PostgresConnection, PostgresError>

    /// Creates a pool of up to `size` connections to `url`, each bounded by `timeouts`, opening
    /// the first.
    ///
    /// - Precondition: `size` is at least 1.
    /// - Throws: ``PostgresError`` when the first connection cannot be opened.
    public init(url: String, size: Int, timeouts: PostgresTimeouts = PostgresTimeouts()) throws(PostgresError) {
        precondition(size >= 1, "a pool holds at least one connection")
        self.timeouts = timeouts
        let roundTrips = PostgresRoundTrips()
        self.roundTrips = roundTrips
        pool = ConnectionPool(
            size: size,
            connections: [try PostgresConnection(url: url, timeouts: timeouts, countingIn: roundTrips)],
            open: { () throws(PostgresError) in try PostgresConnection(url: url, timeouts: timeouts, countingIn: roundTrips) },
            isUsable: { !$0.isBroken },
            checkoutTimeout: timeouts.checkout,
            timeoutFailure: { timeout in
                PostgresError(kind: .timeout, sqlState: nil, message: "no pooled connection came back within \(timeout.secondsText)", sql: nil)
            })
    }

    /// The statements the pool's connections sent, each a round trip to the server.
    public let roundTrips: PostgresRoundTrips

    /// How many connections are open (idle or checked out) right now.
    public var openConnectionCount: Int {
        pool.openConnectionCount
    }

    /// Takes a connection for the calling thread, waiting while all `size` are checked out.
    /// Give it back with ``checkin(_:)``.
    ///
    /// - Throws: ``PostgresError`` of kind ``PostgresError/Kind/connection`` or
    ///   ``PostgresError/Kind/timeout`` when a new connection cannot be opened, or of kind
    ///   ``PostgresError/Kind/timeout`` when none came back within ``PostgresTimeouts/checkout``.
    public func checkout() throws(PostgresError) -> PostgresConnection {
        try pool.checkout()
    }

    /// Gives back a connection from ``checkout()``. A broken one is closed, and one left inside
    /// a transaction is rolled back.
    public func checkin(_ connection: PostgresConnection) {
        connection.rollBack()
        pool.checkin(connection)
    }

    /// Runs `body` with a checked-out connection, and checks it back in afterwards.
    public func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try checkout()
        defer { checkin(connection) }
        return try body(connection)
    }

    /// Runs `body` as one transaction on a checked-out connection, and runs the whole
    /// transaction again, on a healthy connection, when it fails with a transient error
    /// (a serialization failure, a deadlock, a lost connection), as `retry` allows.
    ///
    /// - Throws: what ``StoreCore/Backoff/runRetryingTransientErrors(_:)`` throws.
    public func transaction<T>(
        _ isolation: PostgresIsolationLevel = .readCommitted,
        retry: Backoff = .postgresTransaction,
        _ body: (PostgresConnection) throws -> T
    ) throws -> T {
        try retry.runRetryingTransientErrors {
            try withConnection { try $0.transaction(isolation, body) }
        }
    }
}
