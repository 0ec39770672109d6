/// One row a ledger storage read, with typed access to its columns by name: what
/// ``LedgerRecords`` needs to turn rows of any storage into the ledger's records.
public protocol LedgerRecordRow {
    /// The text in `column`; an error when it is NULL or not text.
    func text(_ column: String) throws -> String
    /// The text in `column`, or nil when it is NULL.
    func optionalText(_ column: String) throws -> String?
    /// The integer in `column`; an error when it is NULL or not an integer.
    func integer(_ column: String) throws -> Int64
    /// The integer in `column`, or nil when it is NULL.
    func optionalInteger(_ column: String) throws -> Int64?
    /// The boolean in `column`; an error when it is NULL or not a boolean.
    func flag(_ column: String) throws -> Bool
    /// The boolean in `column`, or nil when it is NULL.
    func optionalFlag(_ column: String) throws -> Bool?
}

/// Rows of the SQLite ledger read as ``LedgerRecords`` reads them.
extension Row: LedgerRecordRow {
    public func text(_ column: String) throws -> String { try decode(String.self, column: column) }
    public func optionalText(_ column: String) throws -> String? { try decode(String?.self, column: column) }
    public func integer(_ column: String) throws -> Int64 { try decode(Int64.self, column: column) }
    public func optionalInteger(_ column: String) throws -> Int64? { try decode(Int64?.self, column: column) }
    public func flag(_ column: String) throws -> Bool { try decode(Bool.self, column: column) }
    public func optionalFlag(_ column: String) throws -> Bool? { try decode(Bool?.self, column: column) }
}
