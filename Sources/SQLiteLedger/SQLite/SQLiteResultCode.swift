import CSQLite

/// An SQLite result code, primary (`SQLITE_CORRUPT`) or extended (`SQLITE_CONSTRAINT_UNIQUE`).
///
/// The low eight bits of an extended code are its primary code, so `extended.primary` names
/// the family an extended code belongs to.
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code as SQLite defines it.
    public let rawValue: Int32

    /// Wraps a numeric SQLite result code.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code this code belongs to (itself when it is already primary).
    public var primary: SQLiteResultCode {
        SQLiteResultCode(rawValue: rawValue & 0xFF)
    }

    /// SQLite's English description of the code, such as "database disk image is malformed".
    public var description: String {
        String(cString: sqlite3_errstr(rawValue))
    }

    /// A generic error: an SQL error or a missing database.
    public static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
    /// The database file is locked by another connection.
    public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
    /// The database disk image is malformed.
    public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
    /// The file could not be opened.
    public static let cannotOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
    /// A constraint (unique, foreign key, check, not null) was violated.
    public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_CONSTRAINT_UNIQUE`: a `UNIQUE` rule refused a duplicate (an extended code).
    public static let uniqueConstraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT | (8 << 8))
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`: a `PRIMARY KEY` refused a duplicate (an extended code).
    public static let primaryKeyConstraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT | (6 << 8))
    /// A value does not have the type its reader asked for.
    public static let mismatch = SQLiteResultCode(rawValue: SQLITE_MISMATCH)
    /// A parameter or column index is out of range, or an argument count is wrong.
    public static let range = SQLiteResultCode(rawValue: SQLITE_RANGE)
    /// The file is not an SQLite database.
    public static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)
}
