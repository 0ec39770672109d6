/// One step of the ledger's schema history, written once for both databases: the name its
/// databases record it by, the databases whose history holds it, and what it does, as
/// ``LedgerSQL`` run through a ``LedgerMigrationContext`` in the database's dialect.
///
/// Steps are never edited once shipped; a schema change is a new step appended at the end of
/// ``LedgerMigrations/all``.
public struct LedgerMigration: Sendable {
    /// A short name that says what the step does, such as "create ledger tables".
    public let name: String
    /// The databases whose history holds the step; the others never run it.
    public let dialects: Set<LedgerSQLDialect>
    /// Applies the step inside the transaction the migrator opened.
    public let apply: @Sendable (LedgerMigrationContext) throws -> Void

    /// A step named `name`, held in the histories of `dialects` (both databases by default).
    public init(_ name: String, on dialects: Set<LedgerSQLDialect> = [.sqlite, .postgres],
                apply: @escaping @Sendable (LedgerMigrationContext) throws -> Void) {
        self.name = name
        self.dialects = dialects
        self.apply = apply
    }
}
