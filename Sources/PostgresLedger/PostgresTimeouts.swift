/// How long every exchange with a PostgreSQL server may take, so that a server that stops
/// answering — a stopped process, a network that drops packets — holds no thread for longer.
///
/// Past ``connect``, ``statement`` or ``migration`` the work fails with a ``PostgresError`` of
/// kind ``PostgresError/Kind/timeout`` and the connection is never used again: a pool closes it
/// when it comes back and opens a fresh one at its next checkout. The TCP settings apply to the socket itself: an
/// idle connection to a vanished server is found dead by keepalive probes, and data the server
/// does not acknowledge within ``tcpUserTimeout`` breaks the connection. A URL that sets
/// `keepalives`, `keepalives_idle`, `keepalives_interval`, `keepalives_count` or
/// `tcp_user_timeout` keeps its own, and one that sets `connect_timeout` has it as its connect
/// deadline.
public struct PostgresTimeouts: Hashable, Sendable {
    /// How long opening a connection may take, the server's answer to the startup included.
    public var connect: Duration
    /// How long the server may take to answer one exchange: a statement, a pipeline of held
    /// statements, or a prepare.
    public var statement: Duration
    /// How long the statements of a schema migration may take: they may rebuild a large table,
    /// or wait for another process's migration.
    public var migration: Duration
    /// How long a pool's checkout waits for a connection to come back.
    public var checkout: Duration
    /// How long a connection stays idle before the first keepalive probe.
    public var keepaliveIdle: Duration
    /// The pause between keepalive probes.
    public var keepaliveInterval: Duration
    /// How many unanswered keepalive probes break the connection.
    public var keepaliveCount: Int
    /// How long data sent may stay unacknowledged before the connection breaks.
    public var tcpUserTimeout: Duration

    /// The defaults docs/service.md lists: 5 s to connect, 10 s a statement, 10 minutes a
    /// migration's statement, 10 s a checkout; keepalive probes after 30 s idle, every 10 s,
    /// 3 unanswered breaking the connection; 30 s for unacknowledged data.
    public init(connect: Duration = .seconds(5), statement: Duration = .seconds(10), migration: Duration = .seconds(600),
                checkout: Duration = .seconds(10), keepaliveIdle: Duration = .seconds(30), keepaliveInterval: Duration = .seconds(10),
                keepaliveCount: Int = 3, tcpUserTimeout: Duration = .seconds(30)) {
        self.connect = connect
        self.statement = statement
        self.migration = migration
        self.checkout = checkout
        self.keepaliveIdle = keepaliveIdle
        self.keepaliveInterval = keepaliveInterval
        self.keepaliveCount = keepaliveCount
        self.tcpUserTimeout = tcpUserTimeout
    }

    /// The libpq connection settings for the socket, which a URL's own settings override.
    var socketSettings: [(keyword: String, value: String)] {
        [("keepalives", "1"),
         ("keepalives_idle", String(max(1, keepaliveIdle.components.seconds))),
         ("keepalives_interval", String(max(1, keepaliveInterval.components.seconds))),
         ("keepalives_count", String(max(1, keepaliveCount))),
         ("tcp_user_timeout", String(max(1, tcpUserTimeout.wholeMilliseconds)))]
    }
}

extension Duration {
    /// The duration for a message: `10 s`, `0.5 s`.
    var secondsText: String {
        let milliseconds = wholeMilliseconds
        guard milliseconds % 1000 != 0 else { return "\(milliseconds / 1000) s" }
        return "\(Double(milliseconds) / 1000) s"
    }
}
