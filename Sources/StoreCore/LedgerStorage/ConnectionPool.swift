import Foundation

/// Up to `size` database connections shared by many threads, the one pool both ledger storages
/// lend connections from: each thread checks one out, uses it alone, and checks it back in.
///
/// A pool may open its connections when first needed (`open`) or hold those it was given. A
/// connection that comes back unusable (`isUsable` says no — a connection the server dropped)
/// is let go, and its place is filled by a fresh one at the next checkout. A checkout waits
/// while every connection is lent: at most `checkoutTimeout`, or as long as it takes.
public final class ConnectionPool<Connection, Failure: Error>: @unchecked Sendable {
    /// The most connections the pool holds open at once.
    public let size: Int

    private let open: (() throws(Failure) -> Connection)?
    private let isUsable: (Connection) -> Bool
    private let checkoutTimeout: Duration?
    private let timeoutFailure: (Duration) -> Failure
    /// Guards `idle` and `openCount`, and signals when a connection comes back or a place frees.
    private let condition = NSCondition()
    /// The connections waiting to be checked out.
    private var idle: [Connection]
    /// Connections open or being opened: the idle ones and those checked out.
    private var openCount: Int

    /// A pool of up to `size` connections, holding `connections` (opened already) and opening
    /// the others with `open` when they are first needed.
    ///
    /// - Parameters:
    ///   - isUsable: whether a connection may be lent again; one that may not is let go.
    ///   - checkoutTimeout: how long a checkout waits for a connection to come back; nil for as
    ///     long as it takes.
    ///   - timeoutFailure: the error a checkout that waited `checkoutTimeout` in vain throws.
    /// - Precondition: `connections` are at most `size`.
    public init(size: Int, connections: [Connection], open: @escaping () throws(Failure) -> Connection,
                isUsable: @escaping (Connection) -> Bool, checkoutTimeout: Duration?,
                timeoutFailure: @escaping (Duration) -> Failure) {
        precondition(connections.count <= size, "a pool holds at most its size")
        self.size = size
        self.open = open
        self.isUsable = isUsable
        self.checkoutTimeout = checkoutTimeout
        self.timeoutFailure = timeoutFailure
        idle = connections
        openCount = connections.count
    }

    /// A pool of the `connections` given, opening no others; a checkout waits as long as it
    /// takes for one to come back.
    public init(connections: [Connection]) where Failure == Never {
        size = connections.count
        open = nil
        isUsable = { _ in true }
        checkoutTimeout = nil
        timeoutFailure = { _ in fatalError("a pool without a checkout timeout never times out") }
        idle = connections
        openCount = connections.count
    }

    /// How many connections are open (idle or checked out) right now.
    public var openConnectionCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return openCount
    }

    /// Takes a connection for the calling thread, waiting while all `size` are checked out.
    /// Give it back with ``checkin(_:)``.
    ///
    /// - Throws: what `open` throws when a new connection cannot be opened, or
    ///   `timeoutFailure`'s error when none came back within the checkout timeout.
    public func checkout() throws(Failure) -> Connection {
        // The deadline is on the monotonic clock: the condition's wait takes a wall-clock date,
        // which may run a little apart, so a wait that ends early is resumed for what is left.
        let clock = ContinuousClock()
        let deadline = checkoutTimeout.map { clock.now + $0 }
        condition.lock()
        while idle.isEmpty && (openCount == size || open == nil) {
            guard let deadline, let checkoutTimeout else {
                condition.wait()
                continue
            }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else {
                condition.unlock()
                throw timeoutFailure(checkoutTimeout)
            }
            condition.wait(until: Date(timeIntervalSinceNow: remaining.seconds))
        }
        if let connection = idle.popLast() {
            if isUsable(connection) {
                condition.unlock()
                return connection
            }
            // An unusable connection keeps its place for the replacement opened below.
        } else {
            openCount += 1
        }
        condition.unlock()
        do {
            guard let open else { preconditionFailure("a pool that opens nothing lent an unusable connection") }
            return try open()
        } catch {
            condition.lock()
            openCount -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    /// Gives back a connection from ``checkout()``; an unusable one is let go.
    public func checkin(_ connection: Connection) {
        condition.lock()
        defer {
            condition.signal()
            condition.unlock()
        }
        precondition(idle.count < openCount, "a connection was checked in that this pool did not hand out")
        if isUsable(connection) {
            idle.append(connection)
        } else {
            openCount -= 1
        }
    }

    /// Runs `body` with a checked-out connection, and checks it back in afterwards.
    public func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try checkout()
        defer { checkin(connection) }
        return try body(connection)
    }

    /// Lets go of every idle connection, handing each to `close` first.
    public func closeIdleConnections(_ close: (Connection) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        idle.forEach(close)
        openCount -= idle.count
        idle.removeAll()
    }
}
