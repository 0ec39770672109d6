import CSQLite

/// The SQLite connection inside a ``Database``, handed to `read` and `write` closures.
///
/// It is not `Sendable`: it is only valid inside the closure that received it, on that thread,
/// while the database's lock is held. Prepared statements are cached by SQL text.
public final class DatabaseConnection {
    let handle: OpaquePointer
    private var statementCache: [String: Statement] = [:]

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    /// The prepared statement for `sql`, from the cache when it was prepared before.
    ///
    /// The cache lives as long as the connection and is keyed by the exact text, so pass values
    /// as `?` arguments rather than writing them into the SQL.
    ///
    /// - Throws: ``SQLiteError`` when the SQL does not compile, or holds more than one command.
    public func statement(_ sql: String) throws -> Statement {
        if let cached = statementCache[sql] {
            return cached
        }
        let prepared = try Statement(connection: handle, sql: sql)
        statementCache[sql] = prepared
        return prepared
    }

    /// Runs one SQL command with positional arguments.
    public func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
        try statement(sql).execute(arguments)
    }

    /// Runs one query and returns every row.
    public func fetchAll(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        try statement(sql).fetchAll(arguments)
    }

    /// Runs one query and returns its first row, or `nil` when there is none.
    public func fetchOne(_ sql: String, _ arguments: StatementArguments = []) throws -> Row? {
        try statement(sql).fetchOne(arguments)
    }

    /// Runs one query and reads the first column of its first row as `T`, or returns `nil`
    /// when there is no row.
    public func fetchValue<T: DatabaseValueConvertible>(
        _ type: T.Type = T.self, _ sql: String, _ arguments: StatementArguments = []
    ) throws -> T? {
        try fetchOne(sql, arguments).map { try $0.decode(T.self, at: 0) }
    }

    /// Runs several SQL commands separated by semicolons, without arguments and without caching
    /// them: schema scripts in migrations.
    public func execute(script: String) throws {
        try script.withCString { start in
            var cursor = start
            while cursor.pointee != 0 {
                var prepared: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, cursor, -1, &prepared, &tail)
                guard code == SQLITE_OK, let tail else {
                    throw SQLiteError(connection: handle, code: code, sql: String(cString: cursor).trimmingWhitespace)
                }
                let command = String(
                    decoding: UnsafeRawBufferPointer(start: cursor, count: cursor.distance(to: tail)),
                    as: UTF8.self
                ).trimmingWhitespace
                cursor = tail
                guard let prepared else { continue }
                defer { sqlite3_finalize(prepared) }
                var step = sqlite3_step(prepared)
                while step == SQLITE_ROW { step = sqlite3_step(prepared) }
                guard step == SQLITE_DONE else {
                    throw SQLiteError(connection: handle, code: step, sql: command)
                }
            }
        }
    }

    /// The number of rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    public var changes: Int {
        Int(sqlite3_changes64(handle))
    }

    /// The rowid of the last successful `INSERT`.
    public var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// Whether a transaction is open on this connection.
    public var isInsideTransaction: Bool {
        sqlite3_get_autocommit(handle) == 0
    }

    func close() {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

@available(*, unavailable, message: "a connection is only valid inside the closure that received it")
extension DatabaseConnection: Sendable {}
