import CLibPQ
import Foundation

/// Every exchange with the server is asynchronous libpq (`PQsend…`, `PQflush`, `PQconsumeInput`,
/// `PQisBusy`) on a non-blocking connection, waiting on its socket until a deadline: a server
/// that stops answering fails the exchange with ``PostgresError/Kind/timeout`` instead of
/// holding the thread, and the connection is never used again (``isBroken``). It is not
/// cancelled on the server, which may not answer a cancel either; closing it ends the session
/// once the server runs again.
extension PostgresConnection {
    /// The only result of the command just sent, or nil when it produced none; the results
    /// after the first, if any, are read and dropped. The server must answer within
    /// ``statementTimeout``.
    func exchangeResult(sql: String) throws(PostgresError) -> OpaquePointer? {
        let deadline = ContinuousClock.now + statementTimeout
        guard let first = try nextResult(until: deadline, sql: sql) else { return nil }
        do {
            while let extra = try nextResult(until: deadline, sql: sql) { PQclear(extra) }
        } catch {
            PQclear(first)
            throw error
        }
        return first
    }

    /// The next result of the exchange under way, nil when it has no more, once the server has
    /// sent it: what libpq holds to send is sent first.
    ///
    /// - Throws: ``PostgresError`` of kind ``PostgresError/Kind/timeout`` when `deadline` passes
    ///   first, or of kind ``PostgresError/Kind/connection`` when the connection breaks.
    func nextResult(until deadline: ContinuousClock.Instant, sql: String?) throws(PostgresError) -> OpaquePointer? {
        try flushOutput(until: deadline, sql: sql)
        while PQisBusy(handle) == 1 {
            guard Self.waitForSocket(PQsocket(handle), events: Int16(POLLIN), until: deadline) else { throw giveUp(sql: sql) }
            guard PQconsumeInput(handle) == 1 else { throw PostgresError(connection: handle, sql: sql) }
        }
        return PQgetResult(handle)
    }

    /// Sends what libpq holds for the server, reading what the server sends meanwhile so that
    /// neither side waits on the other.
    private func flushOutput(until deadline: ContinuousClock.Instant, sql: String?) throws(PostgresError) {
        while true {
            let pending = PQflush(handle)
            if pending == 0 { return }
            guard pending > 0 else { throw PostgresError(connection: handle, sql: sql) }
            guard Self.waitForSocket(PQsocket(handle), events: Int16(POLLIN | POLLOUT), until: deadline) else { throw giveUp(sql: sql) }
            guard PQconsumeInput(handle) == 1 else { throw PostgresError(connection: handle, sql: sql) }
        }
    }

    /// Marks the connection unusable after an exchange passed its deadline, and the error that says so.
    private func giveUp(sql: String?) -> PostgresError {
        timedOut = true
        return PostgresError(timeoutAfter: statementTimeout, sql: sql)
    }

    /// Runs `body` with exchanges bounded by `timeout` instead of ``PostgresTimeouts/statement``.
    func withStatementTimeout<T>(_ timeout: Duration, _ body: () throws -> T) rethrows -> T {
        let previous = statementTimeout
        statementTimeout = timeout
        defer { statementTimeout = previous }
        return try body()
    }
}
