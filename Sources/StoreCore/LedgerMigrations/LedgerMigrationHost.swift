/// What a storage supplies so that ``LedgerMigrator`` brings its database up to date: a
/// transaction holding the lock that keeps other processes' migrations out, and where the
/// history of applied migrations is kept.
public protocol LedgerMigrationHost {
    /// The connection the migrations' statements run on.
    associatedtype Connection: LedgerSQLConnection

    /// The history as a plain read finds it, without the lock, where that costs less than the
    /// lock does; nil where every migration run takes the lock.
    func historyBeforeLocking() throws -> LedgerMigrationHistory?

    /// Runs `body` in one transaction that holds the migration lock, committing what it did
    /// when it returns and rolling it back when it throws.
    func withMigrationLock<T>(_ body: (Connection) throws -> T) throws -> T

    /// The history recorded in the database, read inside the locked transaction.
    func history(on connection: Connection) throws -> LedgerMigrationHistory

    /// Records, inside the locked transaction, that `migration` was applied at `position` (from 1).
    func record(_ migration: LedgerMigration, position: Int, on connection: Connection) throws
}
