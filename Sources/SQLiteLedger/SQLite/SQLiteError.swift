/// An error reported by SQLite, or by the SQLite layer when a value read back has the wrong
/// type or a statement gets the wrong number of arguments.
///
/// It carries everything needed to understand the failure without a debugger: the primary and
/// extended result codes, SQLite's message, and the SQL that was running.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The primary result code, such as ``SQLiteResultCode/constraint``.
    public let resultCode: SQLiteResultCode
    /// The extended result code, such as `SQLITE_CONSTRAINT_UNIQUE` (equal to the primary
    /// code when SQLite reports no finer detail).
    public let extendedResultCode: SQLiteResultCode
    /// SQLite's message for this failure, such as "file is not a database".
    public let message: String
    /// The SQL that failed, when the failure belongs to a statement.
    public let sql: String?

    /// Creates an error from an extended (or primary) result code.
    public init(extendedResultCode: SQLiteResultCode, message: String, sql: String? = nil) {
        self.resultCode = extendedResultCode.primary
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
    }

    /// One line: codes, message and SQL.
    public var description: String {
        var text = "SQLite error \(resultCode.rawValue) (\(resultCode))"
        if extendedResultCode != resultCode {
            text += ", extended code \(extendedResultCode.rawValue)"
        }
        text += ": \(message)"
        if let sql {
            text += " — while executing `\(sql)`"
        }
        return text
    }
}
