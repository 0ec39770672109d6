import CLibPQ
import Foundation

extension PostgresConnection {
    /// Opens a libpq connection to `url` without blocking past its connect deadline: libpq's
    /// asynchronous connect (`PQconnectStartParams`, `PQconnectPoll`), waiting on the socket, so a
    /// server that accepts TCP but never answers the startup is given up on too. The connection
    /// is left in non-blocking mode, for the bounded exchanges of ``exchangeResult(sql:)``.
    static func connect(url: String, timeouts: PostgresTimeouts) throws(PostgresError) -> OpaquePointer {
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            throw PostgresError(client: "a connection URL starts with postgres:// or postgresql://", sql: nil)
        }
        let limit = try connectTimeout(of: url) ?? timeouts.connect
        // The socket settings come before the URL, which is expanded as `dbname` and overrides any
        // it names itself; `storerules` names the connection in pg_stat_activity unless the URL
        // gives an `application_name` of its own.
        let settings = timeouts.socketSettings + [("dbname", url), ("fallback_application_name", applicationName)]
        let keywords = settings.map { strdup($0.keyword) }
        let values = settings.map { strdup($0.value) }
        defer { (keywords + values).forEach { free($0) } }
        let keywordList = keywords.map { $0.map { UnsafePointer($0) } } + [nil]
        let valueList = values.map { $0.map { UnsafePointer($0) } } + [nil]
        guard let handle = PQconnectStartParams(keywordList, valueList, 1) else {
            throw PostgresError(kind: .connection, sqlState: nil, message: "libpq could not allocate a connection", sql: nil)
        }
        let deadline = ContinuousClock.now + limit
        // Before the first poll, libpq's protocol is to act as if it asked to write.
        var state = PGRES_POLLING_WRITING
        while PQstatus(handle) != CONNECTION_BAD, state == PGRES_POLLING_READING || state == PGRES_POLLING_WRITING {
            let events = state == PGRES_POLLING_READING ? POLLIN : POLLOUT
            guard waitForSocket(PQsocket(handle), events: Int16(events), until: deadline) else {
                PQfinish(handle)
                throw PostgresError(kind: .timeout, sqlState: nil, message: "the database did not answer within \(limit.secondsText) of connecting",
                                    sql: nil)
            }
            state = PQconnectPoll(handle)
        }
        guard PQstatus(handle) == CONNECTION_OK, PQsetnonblocking(handle, 1) == 0 else {
            let error = PostgresError(connection: handle, sql: nil)
            PQfinish(handle)
            throw error
        }
        return handle
    }

    /// The URL's own `connect_timeout`, when it sets one above zero.
    private static func connectTimeout(of url: String) throws(PostgresError) -> Duration? {
        var parseError: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &parseError) else {
            let message = parseError.map { String(cString: $0) } ?? "the connection URL does not parse"
            PQfreemem(parseError)
            throw PostgresError(client: message.trimmingTrailingNewlines, sql: nil)
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "connect_timeout", let value = option.pointee.val,
               let seconds = Int(String(cString: value)), seconds > 0 {
                return .seconds(seconds)
            }
            option += 1
        }
        return nil
    }

    /// Waits until `socket` is ready for `events` (or has failed, which the next libpq call
    /// reports); false when `deadline` passed first.
    static func waitForSocket(_ socket: Int32, events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        guard socket >= 0 else { return true }
        var descriptor = pollfd(fd: socket, events: events, revents: 0)
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            // Rounded up, so that a wait never ends just short of the deadline and spins.
            let milliseconds = Int32(clamping: remaining.wholeMilliseconds + 1)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0, errno != EINTR { return true }
        }
    }
}
