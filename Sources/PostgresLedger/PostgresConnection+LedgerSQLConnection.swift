import StoreCore

/// A libpq connection runs the ledger's one SQL in PostgreSQL's dialect, each statement with
/// parameters prepared once per connection, and statements whose results nothing reads held
/// for the next pipeline.
extension PostgresConnection: LedgerSQLConnection {
    public var dialect: LedgerSQLDialect { .postgres }

    public func rows(_ statement: LedgerSQL) throws -> [PostgresRow] {
        let (sql, arguments) = statement.rendered(in: .postgres)
        return try execute(sql, arguments.map(Self.parameter))
    }

    public func send(_ statement: LedgerSQL) throws {
        let (sql, arguments) = statement.rendered(in: .postgres)
        try send(sql, arguments.map(Self.parameter))
    }

    /// A ledger value as a libpq parameter.
    private static func parameter(_ value: LedgerSQLValue?) -> PostgresValue? {
        switch value {
        case .text(let text): .text(text)
        case .integer(let integer): .integer(integer)
        case .boolean(let flag): .boolean(flag)
        case nil: nil
        }
    }
}
