import CLibPQ

extension PostgresError {
    /// The error a failed result reports: its SQLSTATE and primary message, of kind
    /// ``Kind/connection`` when the connection broke with it and ``Kind/server`` otherwise.
    init(result: OpaquePointer, connection: OpaquePointer, sql: String) {
        let sqlState = PQresultErrorField(result, storerules_pq_diag_sqlstate()).map {
            PostgresSQLState(rawValue: String(cString: $0))
        }
        let primary = PQresultErrorField(result, storerules_pq_diag_message_primary()).map { String(cString: $0) }
        self.init(
            kind: PQstatus(connection) == CONNECTION_OK ? .server : .connection,
            sqlState: sqlState,
            message: primary ?? String(cString: PQresultErrorMessage(result)).trimmingTrailingNewlines,
            sql: sql)
    }

    /// The error libpq reports on `connection` when it has no result to describe it: a failed
    /// connection attempt, or a statement that could not be sent.
    init(connection: OpaquePointer, sql: String?) {
        self.init(
            kind: .connection,
            sqlState: nil,
            message: String(cString: PQerrorMessage(connection)).trimmingTrailingNewlines,
            sql: sql)
    }
}
