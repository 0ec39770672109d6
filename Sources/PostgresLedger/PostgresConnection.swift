import Foundation
import CLibPQ

/// One libpq connection to a PostgreSQL server.
///
/// It is not `Sendable`: one thread uses it at a time. A ``PostgresConnectionPool`` hands
/// connections to many threads, one each. Every statement is sent with its values as
/// parameters (`$1`, `$2`, …), never spliced into the SQL, and prepared once per connection;
/// results arrive in text format and are read into typed ``PostgresValue``s. Inside a
/// transaction, statements whose results nothing reads are held and sent with the next one that
/// is read, in one pipeline: one round trip (``send(_:_:)``). Connecting and every exchange
/// are bounded by ``PostgresTimeouts``: a server that stops answering fails the call instead of
/// holding its thread.
public final class PostgresConnection {
    /// libpq's `PGconn`, finished by `deinit`.
    let handle: OpaquePointer

    /// The `application_name` StoreRules' connections carry, unless their URL names another.
    public static let applicationName = "storerules"
    /// Where this connection counts its round trips, when someone counts them.
    let roundTrips: PostgresRoundTrips?
    /// The server-side names of the statements prepared on this connection, by SQL and
    /// parameter types: a statement with parameters is planned once per connection, then run
    /// by name.
    var preparedStatements: [String: String] = [:]
    /// The most statements one connection prepares; past it, statements are planned each time.
    static let maximumPreparedStatements = 256
    /// The statements ``send(_:_:)`` holds, in order, to go with the next statement whose
    /// rows are read (``execute(_:_:)``) in one pipeline.
    var heldStatements: [(sql: String, parameters: [PostgresValue?])] = []

    /// The deadlines of this connection's exchanges.
    public let timeouts: PostgresTimeouts
    /// How long the server may take to answer the exchange under way: ``PostgresTimeouts/statement``,
    /// or ``PostgresTimeouts/migration`` while a migration runs.
    var statementTimeout: Duration
    /// Whether an exchange passed its deadline: the connection is never used again.
    var timedOut = false

    /// Connects to the server named by `url`, a `postgres://` or `postgresql://` URL such as
    /// `postgresql://ledger@db.example.com:5432/storerules?connect_timeout=5`, within
    /// `timeouts.connect` (or the URL's `connect_timeout`); every exchange afterwards is
    /// bounded by `timeouts` as ``PostgresTimeouts`` says.
    ///
    /// - Throws: ``PostgresError`` of kind ``PostgresError/Kind/client`` when `url` is not such
    ///   a URL or does not parse, of kind ``PostgresError/Kind/connection`` when the server
    ///   cannot be reached or refuses the connection, or of kind ``PostgresError/Kind/timeout``
    ///   when it does not answer in time.
    public init(url: String, timeouts: PostgresTimeouts = PostgresTimeouts(), countingIn roundTrips: PostgresRoundTrips? = nil)
        throws(PostgresError) {
        self.roundTrips = roundTrips
        self.timeouts = timeouts
        statementTimeout = timeouts.statement
        handle = try Self.connect(url: url, timeouts: timeouts)
        // libpq prints notices ("relation already exists, skipping") to standard error by default.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit {
        PQfinish(handle)
    }

    /// Runs one SQL command with its parameters (`$1` is `parameters[0]`; `nil` is `NULL`) and
    /// returns the rows it produced (none for a command that returns no rows).
    ///
    /// - Throws: ``PostgresError``: of kind ``PostgresError/Kind/server`` when the server
    ///   refuses the command (the connection stays usable), ``PostgresError/Kind/connection``
    ///   when the connection breaks, ``PostgresError/Kind/timeout`` when the server does not
    ///   answer within ``PostgresTimeouts/statement`` (the connection is then ``isBroken`` for good),
    ///   or ``PostgresError/Kind/client`` when a text parameter holds a NUL character.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [PostgresValue?] = []) throws(PostgresError) -> [PostgresRow] {
        guard !timedOut else { throw PostgresError(abandonedAfter: statementTimeout, sql: sql) }
        guard heldStatements.isEmpty else {
            let statements = heldStatements + [(sql, parameters)]
            heldStatements.removeAll()
            return try runPipeline(statements)
        }
        let encoded = try PostgresParameters(parameters, sql: sql)
        let key = sql + "\u{0}" + encoded.typeSignature
        var result: OpaquePointer?
        if let name = try prepare(sql, key: key, encoded) {
            roundTrips?.add()
            let sent = encoded.withUnsafeArguments { _, values in PQsendQueryPrepared(handle, name, Int32(encoded.count), values, nil, nil, 0) }
            guard sent == 1 else { throw PostgresError(connection: handle, sql: sql) }
            result = try exchangeResult(sql: sql)
            if let failed = result, PQresultStatus(failed) == PGRES_FATAL_ERROR,
               PQresultErrorField(failed, storerules_pq_diag_sqlstate()).map({ String(cString: $0) }) == "0A000" {
                // The schema changed under the prepared plan ("cached plan must not change result
                // type"): forget it, and run the statement as text.
                PQclear(failed)
                preparedStatements[key] = nil
                result = nil
            }
        }
        if result == nil {
            roundTrips?.add()
            let sent = encoded.withUnsafeArguments { types, values in
                PQsendQueryParams(handle, sql, Int32(encoded.count), types, values, nil, nil, 0)
            }
            guard sent == 1 else { throw PostgresError(connection: handle, sql: sql) }
            result = try exchangeResult(sql: sql)
        }
        guard let result else {
            throw PostgresError(connection: handle, sql: sql)
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return []
        case PGRES_TUPLES_OK:
            return PostgresRow.rows(of: result, sql: sql)
        default:
            throw PostgresError(result: result, connection: handle, sql: sql)
        }
    }

    /// The name of the statement prepared for `key`, preparing it when new; nil for a statement
    /// without parameters, or past ``maximumPreparedStatements``.
    ///
    /// - Throws: ``PostgresError`` when the server refuses to prepare it (a syntax error, an
    ///   aborted transaction), as it would refuse to run it.
    func prepare(_ sql: String, key: String, _ parameters: borrowing PostgresParameters) throws(PostgresError) -> String? {
        if let name = preparedStatements[key] { return name }
        guard parameters.count > 0, preparedStatements.count < Self.maximumPreparedStatements else { return nil }
        let name = "storerules_\(preparedStatements.count + 1)"
        roundTrips?.add()
        let sent = parameters.withUnsafeArguments { types, _ in PQsendPrepare(handle, name, sql, Int32(parameters.count), types) }
        guard sent == 1, let prepared = try exchangeResult(sql: sql) else { throw PostgresError(connection: handle, sql: sql) }
        defer { PQclear(prepared) }
        guard PQresultStatus(prepared) == PGRES_COMMAND_OK else {
            throw PostgresError(result: prepared, connection: handle, sql: sql)
        }
        preparedStatements[key] = name
        return name
    }

    /// Runs `body` inside `BEGIN ISOLATION LEVEL … COMMIT`: every change in it is committed
    /// together, or — when `body` or the commit throws — none of them is.
    ///
    /// At ``PostgresIsolationLevel/serializable`` the server may fail the transaction with
    /// ``PostgresSQLState/serializationFailure`` at any statement or at the commit; run it
    /// again through ``StoreCore/Backoff/runRetryingTransientErrors(_:)`` (or ``PostgresConnectionPool/transaction(_:retry:_:)``).
    ///
    /// - Throws: whatever `body` throws, after rolling back; ``PostgresError`` of kind
    ///   ``PostgresError/Kind/client`` when a transaction is already open on the connection, or
    ///   when `body` caught a failed statement's error and returned (the server has already
    ///   abandoned the transaction, so it is rolled back rather than committed).
    public func transaction<T>(
        _ isolation: PostgresIsolationLevel = .readCommitted, _ body: (PostgresConnection) throws -> T
    ) throws -> T {
        guard !isInsideTransaction else {
            throw PostgresError(client: "a transaction is already open on this connection", sql: nil)
        }
        try send("BEGIN ISOLATION LEVEL \(isolation.rawValue)")
        do {
            let result = try body(self)
            guard PQtransactionStatus(handle) != PQTRANS_INERROR else {
                throw PostgresError(
                    client: "a statement failed inside the transaction, which was rolled back instead of committed",
                    sql: "COMMIT")
            }
            try execute("COMMIT")
            return result
        } catch {
            rollBack()
            throw error
        }
    }

    /// Rolls back the open transaction, if there is one; a connection that breaks meanwhile is
    /// left broken, for ``isBroken`` to report, and a broken one is left as it is.
    func rollBack() {
        heldStatements.removeAll()
        guard isInsideTransaction, !isBroken else { return }
        _ = try? execute("ROLLBACK")
    }

    /// Whether the connection is lost: a statement found the server gone, the session was
    /// terminated, or the server did not answer in time. A broken connection stays broken; open
    /// a new one.
    public var isBroken: Bool {
        timedOut || PQstatus(handle) != CONNECTION_OK
    }

    /// Whether a transaction is open on this connection, healthy or failed, or its `BEGIN` is
    /// held to be sent with its first statement.
    public var isInsideTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || !heldStatements.isEmpty
    }

    /// The process id of the server process serving this connection, as
    /// `pg_stat_activity.pid` and `pg_terminate_backend` name it.
    public var backendProcessID: Int32 {
        PQbackendPID(handle)
    }
}

extension String {
    /// The string without the newlines libpq ends its messages with.
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}

@available(*, unavailable, message: "a connection is used by one thread at a time; share a PostgresConnectionPool instead")
extension PostgresConnection: Sendable {}
