/// What lets one process of a fleet reconcile at a time: a PostgreSQL advisory lock for a
/// shared ledger, a file lock for a SQLite file.
public protocol ReconciliationLock: Sendable {
    /// Runs `body` when this process gets the lock now, and returns its result; nil, without
    /// running it, when another process holds it.
    func withLockIfFree<T>(_ body: () async throws -> T) async throws -> T?
}
