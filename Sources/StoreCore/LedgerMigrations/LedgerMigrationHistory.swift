/// What a database records of the ledger migrations applied to it.
public enum LedgerMigrationHistory: Sendable, Equatable {
    /// How many were applied, as SQLite's `PRAGMA user_version` says.
    case count(Int)
    /// The names of those applied, in order, as PostgreSQL's `storerules_migrations` table keeps them.
    case names([String])

    /// How many migrations were applied.
    public var count: Int {
        switch self {
        case .count(let count): count
        case .names(let names): names.count
        }
    }
}
