/// A value bound to a ``LedgerSQL`` statement's parameter; SQL `NULL` is `nil`.
///
/// Each database binds it in its own types: a boolean is `boolean` on PostgreSQL and the
/// integer 0 or 1 on SQLite, whose `STRICT` tables keep flags as integers.
public enum LedgerSQLValue: Sendable, Hashable {
    /// Text, in UTF-8.
    case text(String)
    /// A 64-bit signed integer: counts, amounts and dates in epoch milliseconds.
    case integer(Int64)
    /// A flag.
    case boolean(Bool)
}

extension LedgerSQLValue: DatabaseValueConvertible {
    /// The value as SQLite stores it.
    public var databaseValue: DatabaseValue {
        switch self {
        case .text(let text): .text(text)
        case .integer(let integer): .integer(integer)
        case .boolean(let flag): .integer(flag ? 1 : 0)
        }
    }

    /// A stored text or integer; other storage classes read as nothing.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> LedgerSQLValue? {
        switch value {
        case .text(let text): .text(text)
        case .integer(let integer): .integer(integer)
        case .null, .real, .blob: nil
        }
    }
}
