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
    public let size: Int
    /// The deadlines of every connection, and of ``checkout()``'s wait
    /// (``PostgresTimeouts/checkout``).
    public let timeouts: PostgresTimeouts

    /// The URL every connection opens with.
    private let url: String
    /// Guards `idle` and `openCount`, and signals when a connection comes back or a place frees.
    private let condition = NSCondition()
    /// The connections waiting to be checked out.
    private var idle: [PostgresConnection]
    /// Connections open or being opened: the idle ones and those checked out.
    private var openCount: Int

    /// Creates a pool of up to `size` connections to `url`, each bounded by `timeouts`, opening
    /// the first.
    ///
    /// - Precondition: `size` is at least 1.
    /// - Throws: ``PostgresError`` when the first connection cannot be opened.
    public init(url: String, size: Int, timeouts: PostgresTimeouts = PostgresTimeouts()) throws(PostgresError) {
        precondition(size >= 1, "a pool holds at least one connection")
        self.url = url
        self.size = size
        self.timeouts = timeouts
        self.idle = [try PostgresConnection(url: url, timeouts: timeouts, countingIn: roundTrips)]
        self.openCount = 1
    }

    /// The statements the pool's connections sent, each a round trip to the server.
    public let roundTrips = PostgresRoundTrips()

    /// How many connections are open (idle or checked out) right now.
    public var openConnectionCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return openCount
    }

    /// Takes a connection for the calling thread, waiting while all `size` are checked out.
    /// Give it back with ``checkin(_:)``.
    ///
    /// - Throws: ``PostgresError`` of kind ``PostgresError/Kind/connection`` or
    ///   ``PostgresError/Kind/timeout`` when a new connection cannot be opened, or of kind
    ///   ``PostgresError/Kind/timeout`` when none came back within ``PostgresTimeouts/checkout``.
    public func checkout() throws(PostgresError) -> PostgresConnection {
        // The deadline is on the monotonic clock: the condition's wait takes a wall-clock date,
        // which may run a little apart, so a wait that ends early is resumed for what is left.
        let clock = ContinuousClock()
        let deadline = clock.now + timeouts.checkout
        condition.lock()
        while idle.isEmpty && openCount == size {
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else {
                condition.unlock()
                throw PostgresError(kind: .timeout, sqlState: nil,
                                    message: "no pooled connection came back within \(timeouts.checkout.secondsText)", sql: nil)
            }
            condition.wait(until: Date(timeIntervalSinceNow: remaining.seconds))
        }
        if let connection = idle.popLast() {
            if !connection.isBroken {
                condition.unlock()
                return connection
            }
            // A broken connection keeps its place for the replacement opened below.
        } else {
            openCount += 1
        }
        condition.unlock()
        do {
            return try PostgresConnection(url: url, timeouts: timeouts, countingIn: roundTrips)
        } catch {
            condition.lock()
            openCount -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    /// Gives back a connection from ``checkout()``. A broken one is closed, and one left inside
    /// a transaction is rolled back.
    public func checkin(_ connection: PostgresConnection) {
        connection.rollBack()
        condition.lock()
        defer {
            condition.signal()
            condition.unlock()
        }
        precondition(idle.count < openCount, "a connection was checked in that this pool did not hand out")
        if connection.isBroken {
            openCount -= 1
        } else {
            idle.append(connection)
        }
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
