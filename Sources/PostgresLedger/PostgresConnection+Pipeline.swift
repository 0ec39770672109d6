import CLibPQ

extension PostgresConnection {
    /// Runs a statement whose rows nothing reads. Inside a transaction (or once its `BEGIN` is
    /// held) the statement is held and sent with the next statement ``execute(_:_:)`` runs —
    /// the `COMMIT` at the latest — in one pipeline, one round trip; a failure among them is
    /// thrown then, the first one, and fails the transaction as it would have at once. Outside
    /// a transaction it runs at once.
    ///
    /// - Throws: ``PostgresError``, when the statement runs at once.
    public func send(_ sql: String, _ parameters: [PostgresValue?] = []) throws(PostgresError) {
        guard isInsideTransaction || sql.hasPrefix("BEGIN") else {
            try execute(sql, parameters)
            return
        }
        heldStatements.append((sql, parameters))
    }

    /// Sends `statements` in libpq's pipeline mode and one sync, then reads every result: one
    /// round trip. Statements with parameters are prepared first when new to this connection
    /// (a round trip each, once).
    ///
    /// - Returns: the rows of the last statement.
    /// - Throws: the first statement's failure, after every result is read; a statement whose
    ///   prepared plan the schema changed under (`0A000`) is forgotten, so that a retry of the
    ///   transaction plans it again.
    func runPipeline(_ statements: [(sql: String, parameters: [PostgresValue?])]) throws(PostgresError) -> [PostgresRow] {
        var keys: [String?] = []
        for (sql, parameters) in statements {
            let encoded = try PostgresParameters(parameters, sql: sql)
            let key = sql + "\u{0}" + encoded.typeSignature
            keys.append(try prepare(sql, key: key, encoded) == nil ? nil : key)
        }
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresError(connection: handle, sql: statements.first?.sql)
        }
        roundTrips?.add()
        defer { leavePipeline() }
        for ((sql, parameters), key) in zip(statements, keys) {
            let encoded = try PostgresParameters(parameters, sql: sql)
            let sent = encoded.withUnsafeArguments { types, values in
                if let key, let name = preparedStatements[key] {
                    PQsendQueryPrepared(handle, name, Int32(encoded.count), values, nil, nil, 0)
                } else {
                    PQsendQueryParams(handle, sql, Int32(encoded.count), types, values, nil, nil, 0)
                }
            }
            guard sent == 1 else { throw PostgresError(connection: handle, sql: sql) }
        }
        guard PQpipelineSync(handle) == 1 else { throw PostgresError(connection: handle, sql: statements.last?.sql) }
        let deadline = ContinuousClock.now + statementTimeout
        var firstFailure: PostgresError?
        var lastRows: [PostgresRow] = []
        for ((sql, _), key) in zip(statements, keys) {
            guard let result = try nextResult(until: deadline, sql: sql) else { throw PostgresError(connection: handle, sql: sql) }
            switch PQresultStatus(result) {
            case PGRES_TUPLES_OK:
                lastRows = PostgresRow.rows(of: result, sql: sql)
            case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY, PGRES_PIPELINE_ABORTED:
                lastRows = []
            default:
                let failure = PostgresError(result: result, connection: handle, sql: sql)
                if failure.sqlState?.rawValue == "0A000", let key { preparedStatements[key] = nil }
                firstFailure = firstFailure ?? failure
            }
            PQclear(result)
            // Each statement's results end with a null result.
            while let extra = try nextResult(until: deadline, sql: sql) { PQclear(extra) }
        }
        if let firstFailure { throw firstFailure }
        return lastRows
    }

    /// Reads what is left up to the pipeline's sync, and leaves pipeline mode; a connection
    /// that timed out or broke is left as it is, never to be used again.
    private func leavePipeline() {
        let deadline = ContinuousClock.now + statementTimeout
        while !isBroken, PQpipelineStatus(handle) != PQ_PIPELINE_OFF, ContinuousClock.now < deadline {
            guard let result = try? nextResult(until: deadline, sql: nil) else {
                if PQexitPipelineMode(handle) == 1 { return }
                continue
            }
            PQclear(result)
        }
    }
}
