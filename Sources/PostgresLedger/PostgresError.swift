/// An error from the server, from libpq, or from this library before anything reached the
/// server.
///
/// It carries what is needed to understand the failure without a debugger — the SQLSTATE, the
/// server's message and the statement — and says whether running the same work again from the
/// start may succeed (``isTransient``).
public struct PostgresError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the error comes from.
    public enum Kind: Hashable, Sendable {
        /// The server refused a statement; ``PostgresError/sqlState`` says why, and the
        /// connection is still usable.
        case server
        /// The connection could not be opened, or it broke: the server went away, the network
        /// failed, or an administrator terminated the session. The connection is unusable.
        case connection
        /// The server did not answer within its deadline (``PostgresTimeouts``), or no pooled
        /// connection came back in time. A connection that timed out is never used again; the
        /// work may succeed later, once the server answers again.
        case timeout
        /// Nothing reached the server: a URL that does not parse, text holding a NUL character,
        /// a transaction begun inside another, or a column that is missing or holds another type.
        case client
    }

    /// Where the error comes from.
    public let kind: Kind
    /// The server's SQLSTATE, when the server reported one.
    public let sqlState: PostgresSQLState?
    /// The server's or libpq's message, such as `duplicate key value violates unique constraint "…"`.
    public let message: String
    /// The statement that failed, when the failure belongs to one.
    public let sql: String?
    /// The server's detail, such as `Key (id)=(ana) already exists.`, when it gave one.
    public let detail: String?
    /// The table the failure concerns (a constraint's), when the server named one.
    public let table: String?

    /// Creates an error.
    public init(kind: Kind, sqlState: PostgresSQLState?, message: String, sql: String?, detail: String? = nil, table: String? = nil) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.sql = sql
        self.detail = detail
        self.table = table
    }

    /// An error of kind ``Kind/client``.
    init(client message: String, sql: String?) {
        self.init(kind: .client, sqlState: nil, message: message, sql: sql)
    }

    /// An error of kind ``Kind/timeout``: the server did not answer an exchange within `limit`.
    init(timeoutAfter limit: Duration, sql: String?) {
        self.init(kind: .timeout, sqlState: nil, message: "the database did not answer within \(limit.secondsText); the connection is not used again",
                  sql: sql)
    }

    /// The error of a statement on a connection that timed out before: it is never used again.
    init(abandonedAfter limit: Duration, sql: String?) {
        self.init(kind: .timeout, sqlState: nil,
                  message: "the connection is not used again since the database did not answer within \(limit.secondsText)", sql: sql)
    }

    /// Whether the work may succeed when run again from the start, on a healthy connection: a
    /// broken connection, a server that did not answer in time, or an SQLSTATE that
    /// ``PostgresSQLState/isTransient``. Anything else — a syntax error, a constraint violation,
    /// a client error — fails again the same way.
    public var isTransient: Bool {
        kind == .connection || kind == .timeout || (sqlState?.isTransient ?? false)
    }

    /// One line: kind, SQLSTATE, message and statement.
    public var description: String {
        var text = switch kind {
        case .server: "PostgreSQL error"
        case .connection: "PostgreSQL connection error"
        case .timeout: "PostgreSQL timeout"
        case .client: "PostgreSQL client error"
        }
        if let sqlState {
            text += " \(sqlState)"
        }
        text += ": \(message)"
        if let sql {
            text += " — while executing `\(sql)`"
        }
        return text
    }
}
