/// A database connection the ledger's one SQL runs over: SQLite's `DatabaseConnection` or a
/// libpq connection. It renders each ``LedgerSQL`` statement in its ``dialect``, binds the
/// parameters and returns the rows, which ``LedgerRecords`` turns into records.
///
/// A connection is used by one thread at a time, inside the transaction its storage began.
public protocol LedgerSQLConnection {
    /// The rows a statement returns, read by column name or position.
    associatedtype ResultRow: PositionalRecordRow

    /// The SQL this connection's database reads.
    var dialect: LedgerSQLDialect { get }

    /// Runs `statement` and returns every row it produced (none for a command without
    /// `RETURNING`), after any statement ``send(_:)`` holds.
    func rows(_ statement: LedgerSQL) throws -> [ResultRow]

    /// Runs a statement whose rows nothing reads. Inside a transaction a connection whose
    /// statements are round trips may hold it and send it with the next statement whose rows
    /// are read, or with the commit, in one round trip (a pipeline); its failure is thrown then,
    /// and fails the transaction as it would have at once.
    func send(_ statement: LedgerSQL) throws
}

extension LedgerSQLConnection {
    /// The first row of a statement's result.
    func firstRow(_ statement: LedgerSQL) throws -> ResultRow? {
        try rows(statement).first
    }

    /// Whether a statement returned a row: for `INSERT … ON CONFLICT DO NOTHING RETURNING` and
    /// `UPDATE … RETURNING`, whether it changed one.
    func returnsRow(_ statement: LedgerSQL) throws -> Bool {
        try !rows(statement).isEmpty
    }
}
