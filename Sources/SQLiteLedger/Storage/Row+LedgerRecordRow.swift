import StoreCore

/// Rows of the SQLite ledger read as ``LedgerRecords`` reads them, by name or position.
extension Row: PositionalRecordRow {
    public func text(_ column: String) throws -> String { try decode(String.self, column: column) }
    public func optionalText(_ column: String) throws -> String? { try decode(String?.self, column: column) }
    public func integer(_ column: String) throws -> Int64 { try decode(Int64.self, column: column) }
    public func optionalInteger(_ column: String) throws -> Int64? { try decode(Int64?.self, column: column) }
    public func text(at index: Int) throws -> String { try decode(String.self, at: index) }
    public func integer(at index: Int) throws -> Int64 { try decode(Int64.self, at: index) }
    public func optionalInteger(at index: Int) throws -> Int64? { try decode(Int64?.self, at: index) }
    public func flag(_ column: String) throws -> Bool { try decode(Bool.self, column: column) }
    public func optionalFlag(_ column: String) throws -> Bool? { try decode(Bool?.self, column: column) }
    public func real(_ column: String) throws -> Double { try decode(Double.self, column: column) }
}
