import StoreCore

/// Rows of the PostgreSQL ledger read as ``StoreCore/LedgerRecords`` reads them, by name or position.
extension PostgresRow: PositionalRecordRow {
    public func text(_ column: String) throws -> String { try decode(String.self, column: column) }
    public func optionalText(_ column: String) throws -> String? { try decode(String?.self, column: column) }
    public func integer(_ column: String) throws -> Int64 { try decode(Int64.self, column: column) }
    public func optionalInteger(_ column: String) throws -> Int64? { try decode(Int64?.self, column: column) }
    public func text(at index: Int) throws -> String { try decode(String.self, at: index) }
    public func integer(at index: Int) throws -> Int64 { try decode(Int64.self, at: index) }
    public func optionalInteger(at index: Int) throws -> Int64? { try decode(Int64?.self, at: index) }
    public func flag(_ column: String) throws -> Bool { try decode(Bool.self, column: column) }
    public func optionalFlag(_ column: String) throws -> Bool? { try decode(Bool?.self, column: column) }

    /// Reads an integer, or the text of a `numeric` or `double precision` column, as a `Double`.
    public func real(_ column: String) throws -> Double {
        switch try decode(PostgresValue.self, column: column) {
        case .integer(let integer): return Double(integer)
        case .text(let text):
            guard let number = Double(text) else {
                throw PostgresError(client: "column '\(column)' holds \(text.prefix(40)), which does not read as a number", sql: sql)
            }
            return number
        case .boolean: throw PostgresError(client: "column '\(column)' holds boolean, which does not read as a number", sql: sql)
        }
    }
}
