/// What differs between the SQL of the ledger's two databases, and only that: how a parameter
/// is written, how text is ordered byte by byte, how a row is held for a write, how rows are
/// gathered into JSON, and how a read names the index it walks. Everything else a
/// ``LedgerSQL`` statement says is the same text on both.
public enum LedgerSQLDialect: Sendable, Hashable {
    /// SQLite: `?1`, `?2`, …; text orders byte by byte already (`BINARY`); one writer at a time,
    /// so a row needs no lock; `json_group_array(json_object(…))`.
    case sqlite
    /// PostgreSQL: `$1`, `$2`, …; `COLLATE "C"` orders byte by byte; `FOR UPDATE` holds a row;
    /// `json_agg(json_build_object(…))`.
    case postgres

    /// The parameter at `position` (from 1).
    func placeholder(_ position: Int) -> String {
        switch self {
        case .sqlite: "?\(position)"
        case .postgres: "$\(position)"
        }
    }

    /// What a ``LedgerSQLFragment`` reads as in this dialect.
    func text(of fragment: LedgerSQLFragment) -> String {
        switch fragment {
        case .binaryCollation: return self == .postgres ? #" COLLATE "C""# : ""
        case .rowLock: return self == .postgres ? " FOR UPDATE" : ""
        case .rowLockSkippingLocked: return self == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        case .jsonArray(let columns):
            let pairs = columns.map { "'\($0)', \($0)" }.joined(separator: ", ")
            return self == .postgres ? "json_agg(json_build_object(\(pairs)))" : "json_group_array(json_object(\(pairs)))"
        case .indexedBy(let index): return self == .sqlite ? " INDEXED BY \(index)" : ""
        }
    }
}

/// A piece of a ``LedgerSQL`` statement that each ``LedgerSQLDialect`` writes its own way.
public enum LedgerSQLFragment: Sendable, Hashable {
    /// After an `ORDER BY` term of text: order it byte by byte, the same on both databases.
    case binaryCollation
    /// At the end of a `SELECT`: hold the rows it reads until the write commits.
    case rowLock
    /// At the end of a `SELECT`: hold the rows it reads until the write commits, leaving out
    /// rows another write holds (SQLite's one writer needs neither).
    case rowLockSkippingLocked
    /// An aggregate gathering these columns of each row into one JSON array of objects (NULL
    /// over no rows), read back through ``JSONRecordRow``.
    case jsonArray(columns: [String])
    /// After a table in a `FROM` clause: SQLite reads it through this index, and fails the
    /// statement if it cannot, where its planner would pick another without the table's
    /// statistics; PostgreSQL's planner chooses alone.
    case indexedBy(String)
}
