/// The isolation level a ``PostgresConnection/transaction(_:_:)`` runs at.
public enum PostgresIsolationLevel: String, Hashable, Sendable, CaseIterable {
    /// Each statement sees what was committed before it began (PostgreSQL's default).
    case readCommitted = "READ COMMITTED"
    /// Every statement sees the snapshot taken by the transaction's first statement.
    case repeatableRead = "REPEATABLE READ"
    /// The transaction behaves as if it ran alone; a conflict with a concurrent one fails it
    /// with ``PostgresSQLState/serializationFailure``, to run again.
    case serializable = "SERIALIZABLE"
}
