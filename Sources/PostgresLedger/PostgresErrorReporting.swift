import CLibPQ
import StoreCore

extension PostgresError {
    /// The error a failed result reports: its SQLSTATE and primary message, of kind
    /// ``Kind/connection`` when the connection broke with it and ``Kind/server`` otherwise.
    init(result: OpaquePointer, connection: OpaquePointer, sql: String) {
        let sqlState = PQresultErrorField(result, storerules_pq_diag_sqlstate()).map {
            PostgresSQLState(rawValue: String(cString: $0))
        }
        let field = { (code: Int32) in PQresultErrorField(result, code).map { String(cString: $0) } }
        self.init(
            kind: PQstatus(connection) == CONNECTION_OK ? .server : .connection,
            sqlState: sqlState,
            message: field(storerules_pq_diag_message_primary()) ?? String(cString: PQresultErrorMessage(result)).trimmingTrailingNewlines,
            sql: sql,
            detail: field(storerules_pq_diag_message_detail()),
            table: field(storerules_pq_diag_table_name()))
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
