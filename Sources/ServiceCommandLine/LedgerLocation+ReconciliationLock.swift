import Foundation
import PostgresLedger
import StoreService

extension LedgerLocation {
    /// The key of the advisory lock reconciling instances of a fleet take: the bytes of "StoreRec".
    public static let reconciliationLockKey: Int64 = 0x5374_6F72_6552_6563

    /// The lock that lets one process reconcile this ledger at a time: an advisory lock in a
    /// PostgreSQL database, a lock on `FILE.reconcile.lock` beside a SQLite file.
    public var reconciliationLock: any ReconciliationLock {
        switch self {
        case .sqlite(let path): FileReconciliationLock(path: path + ".reconcile.lock")
        case .postgres(let url): PostgresSessionLock(url: url, key: Self.reconciliationLockKey)
        }
    }
}

extension PostgresSessionLock: ReconciliationLock {}

/// An exclusive `flock` on a file, taken without waiting and released when the work is done or
/// the process ends.
struct FileReconciliationLock: ReconciliationLock {
    let path: String

    func withLockIfFree<T>(_ body: () async throws -> T) async throws -> T? {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw LockFailure(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return nil }
        defer { flock(descriptor, LOCK_UN) }
        return try await body()
    }

    /// The lock file cannot be opened.
    struct LockFailure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "the reconcile lock \(path) cannot be opened: \(reason)" }
    }
}
