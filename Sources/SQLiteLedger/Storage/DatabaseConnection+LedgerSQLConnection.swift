import StoreCore

/// An SQLite connection runs the ledger's one SQL in SQLite's dialect, each statement prepared
/// once and cached by its text.
extension DatabaseConnection: LedgerSQLConnection {
    public var dialect: LedgerSQLDialect { .sqlite }

    public func rows(_ statement: LedgerSQL) throws -> [Row] {
        let (sql, arguments) = statement.rendered(in: .sqlite)
        return try fetchAll(sql, arguments)
    }

    /// Runs the statement at once: a statement is a function call, not a round trip.
    public func send(_ statement: LedgerSQL) throws {
        let (sql, arguments) = statement.rendered(in: .sqlite)
        try execute(sql, arguments)
    }
}
