import CSQLite

/// The arguments bound to a statement's positional `?` parameters, in order.
///
/// `nil` and `Optional.none` bind `NULL`.
public typealias StatementArguments = [(any DatabaseValueConvertible)?]

/// A prepared SQL statement of one connection.
///
/// Statements are made by ``DatabaseConnection/statement(_:)``, which caches them by SQL text,
/// and live only inside the `read`/`write` closure of the ``Database`` that made them. Every
/// run binds all parameters afresh and resets the statement when it ends, so a cached
/// statement carries nothing from one use to the next.
public final class Statement {
    /// The SQL text the statement was prepared from.
    public let sql: String
    /// The names of the result columns (empty for statements that return no rows).
    public let columnNames: [String]
    /// Each column name's first index, found once for every row the statement returns.
    private let columnIndexes: [String: Int]
    /// How many `?` parameters the statement takes.
    public let parameterCount: Int

    private let handle: OpaquePointer

    init(connection: OpaquePointer, sql: String) throws {
        var prepared: OpaquePointer?
        // The tail points into the C string, so it is read while that string is alive.
        let (code, hasTrailingText) = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(connection, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, &tail)
            let trailing = tail.map { String(cString: $0) } ?? ""
            return (code, !trailing.allSatisfy(\.isWhitespace))
        }
        guard code == SQLITE_OK, let prepared else {
            throw SQLiteError(connection: connection, code: code, sql: sql)
        }
        if hasTrailingText {
            sqlite3_finalize(prepared)
            throw SQLiteError(
                extendedResultCode: .error,
                message: "a statement must hold exactly one SQL command; use DatabaseConnection.execute(script:) for several",
                sql: sql)
        }
        self.sql = sql
        self.handle = prepared
        self.parameterCount = Int(sqlite3_bind_parameter_count(prepared))
        self.columnNames = (0..<sqlite3_column_count(prepared)).map {
            String(cString: sqlite3_column_name(prepared, $0))
        }
        self.columnIndexes = Row.columnIndexes(of: columnNames)
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Runs the statement to completion, ignoring any rows.
    public func execute(_ arguments: StatementArguments = []) throws {
        try run(arguments) { _ in }
    }

    /// Runs the statement and returns every row.
    public func fetchAll(_ arguments: StatementArguments = []) throws -> [Row] {
        var rows: [Row] = []
        try run(arguments) { rows.append($0) }
        return rows
    }

    /// Runs the statement and returns its first row, or `nil` when there is none.
    public func fetchOne(_ arguments: StatementArguments = []) throws -> Row? {
        try fetchAll(arguments).first
    }

    private func run(_ arguments: StatementArguments, _ receive: (Row) throws -> Void) throws {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        try bind(arguments)
        while true {
            let code = sqlite3_step(handle)
            switch code {
            case SQLITE_ROW:
                try receive(currentRow())
            case SQLITE_DONE:
                return
            default:
                throw SQLiteError(connection: sqlite3_db_handle(handle), code: code, sql: sql)
            }
        }
    }

    private func bind(_ arguments: StatementArguments) throws {
        guard arguments.count == parameterCount else {
            throw SQLiteError(
                extendedResultCode: .range,
                message: "the statement takes \(parameterCount) argument(s), \(arguments.count) given",
                sql: sql)
        }
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch argument?.databaseValue ?? .null {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case .integer(let integer):
                code = sqlite3_bind_int64(handle, index, integer)
            case .real(let real):
                code = sqlite3_bind_double(handle, index, real)
            case .text(let text):
                // An explicit byte count keeps text with embedded NUL characters whole.
                code = text.utf8CString.withUnsafeBufferPointer {
                    sqlite3_bind_text64(
                        handle, index, $0.baseAddress, sqlite3_uint64($0.count - 1),
                        storerules_sqlite_transient(), UInt8(SQLITE_UTF8))
                }
            case .blob(let bytes) where bytes.isEmpty:
                // A null pointer would bind NULL, so an empty blob is bound as a zero-length blob.
                code = sqlite3_bind_zeroblob64(handle, index, 0)
            case .blob(let bytes):
                code = bytes.withUnsafeBytes {
                    sqlite3_bind_blob64(handle, index, $0.baseAddress, sqlite3_uint64($0.count), storerules_sqlite_transient())
                }
            }
            guard code == SQLITE_OK else {
                throw SQLiteError(connection: sqlite3_db_handle(handle), code: code, sql: sql)
            }
        }
    }

    private func currentRow() -> Row {
        let values = (0..<Int32(columnNames.count)).map { column -> DatabaseValue in
            switch sqlite3_column_type(handle, column) {
            case SQLITE_INTEGER:
                return .integer(sqlite3_column_int64(handle, column))
            case SQLITE_FLOAT:
                return .real(sqlite3_column_double(handle, column))
            case SQLITE_TEXT:
                let count = Int(sqlite3_column_bytes(handle, column))
                guard count > 0, let text = sqlite3_column_text(handle, column) else { return .text("") }
                return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(handle, column))
                guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob([]) }
                return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
            default:
                return .null
            }
        }
        return Row(columnNames: columnNames, columnIndexes: columnIndexes, values: values, sql: sql)
    }
}

@available(*, unavailable, message: "a statement belongs to the connection that prepared it")
extension Statement: Sendable {}

extension SQLiteError {
    /// Builds the error SQLite reports on `connection` after `code`.
    ///
    /// The connection's extended code and message are used when they belong to `code`'s family;
    /// otherwise they describe an earlier call, and `code` alone is reported.
    init(connection: OpaquePointer?, code: Int32, sql: String?) {
        if let connection, sqlite3_extended_errcode(connection) & 0xFF == code & 0xFF {
            self.init(
                extendedResultCode: SQLiteResultCode(rawValue: sqlite3_extended_errcode(connection)),
                message: String(cString: sqlite3_errmsg(connection)),
                sql: sql)
        } else {
            self.init(
                extendedResultCode: SQLiteResultCode(rawValue: code),
                message: String(cString: sqlite3_errstr(code)),
                sql: sql)
        }
    }
}
