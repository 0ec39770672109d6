import StoreCore

/// A ledger statement's parameter, bound in SQLite's storage classes.
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
