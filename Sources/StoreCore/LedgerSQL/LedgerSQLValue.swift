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
