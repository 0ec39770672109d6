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
    /// The number in `column`, integer or not, as a `Double`; an error when it is NULL or not
    /// a number.
    func real(_ column: String) throws -> Double
}

/// A row whose columns can also be read by position, as a statement lists them: for reads of
/// many rows, where finding each column by name would cost more than reading it.
public protocol PositionalRecordRow: LedgerRecordRow {
    /// The text at `index`; an error when it is NULL or not text.
    func text(at index: Int) throws -> String
    /// The integer at `index`; an error when it is NULL or not an integer.
    func integer(at index: Int) throws -> Int64
    /// The integer at `index`, or nil when it is NULL.
    func optionalInteger(at index: Int) throws -> Int64?
}
