import CSQLite
import Foundation
import StoreCore

/// An SQLite database file behind one connection, safe to share between threads.
///
/// Opening a database configures it for durability: write-ahead logging (`journal_mode=WAL`),
/// `synchronous=FULL` (a committed transaction survives power loss), foreign keys enforced,
/// and a busy timeout for files shared with other processes.
///
/// Every access goes through ``read(_:)`` or ``write(_:)``, which hold a lock around the single
/// connection for the duration of the closure, so calls from many threads run one at a time.
/// The lock is recursive: a `read` inside a `write` on the same thread joins the open
/// transaction, while a `write` inside another transaction fails with an ``SQLiteError``.
///
/// The write-ahead log is copied back into the file on a connection and thread of its own
/// (``DatabaseCheckpointer``), not inside the commit that fills it.
///
/// Writes from several threads at once commit in groups: each runs in its own savepoint of one
/// transaction, and the transaction commits once for all of them (one `fsync`), before any of
/// their `write` calls returns.
public final class Database: @unchecked Sendable {
    /// How a database is opened.
    public struct Configuration: Sendable, Hashable {
        /// How long a statement waits for another process's lock before failing with
        /// ``SQLiteResultCode/busy``.
        public var busyTimeout: Duration

        /// The default configuration: a five-second busy timeout.
        public init(busyTimeout: Duration = .seconds(5)) {
            self.busyTimeout = busyTimeout
        }
    }

    /// The path of the database file.
    public let path: String

    // Guards `connection`: every use of it happens inside `lock`.
    private let lock = NSRecursiveLock()
    private let connection: DatabaseConnection
    private let writes = DatabaseWriteQueue()
    // Copies the write-ahead log into the file away from the writes.
    private let checkpointer: DatabaseCheckpointer
    // How many transactions the write queue committed; guarded by `lock`.
    private var queuedCommits = 0
    /// Whether the writer's commits are at `synchronous=NORMAL`: while a group of writes that
    /// do not wait for the disk runs, or after setting `FULL` again failed, until it succeeds.
    private var commitsWithoutWaitingForDisk = false

    /// How many checkpoints of the write-ahead log ran, on the checkpointer's queue and in commits.
    var checkpointCounts: DatabaseCheckpointer.Counts {
        checkpointer.checkpointCounts
    }

    /// How many transactions grouped writes have committed, however many writes each held.
    var groupCommitCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return queuedCommits
    }

    /// Opens (creating when missing) the database file at `path` and configures it. A file it
    /// creates is its owner's alone (``OwnerOnlyFile``), and so are the write-ahead log and
    /// shared-memory files beside it, which SQLite makes with the database file's mode.
    ///
    /// - Throws: ``SQLiteError`` when the file cannot be opened, is not an SQLite database
    ///   (``SQLiteResultCode/notADatabase``), or cannot use write-ahead logging. A file that
    ///   fails to open is left as it was.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        if !path.isEmpty, path != ":memory:" {
            OwnerOnlyFile.makeIfMissing(path)
        }
        SQLiteLibrary.configured
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(connection: handle, code: code, sql: nil)
            sqlite3_close_v2(handle)
            throw error
        }
        let connection = DatabaseConnection(handle: handle)
        do {
            sqlite3_extended_result_codes(handle, 1)
            sqlite3_busy_timeout(handle, Int32(clamping: configuration.busyTimeout.wholeMilliseconds))
            let journalMode = try connection.fetchValue(String.self, "PRAGMA journal_mode = WAL")
            guard journalMode?.lowercased() == "wal" else {
                throw SQLiteError(
                    extendedResultCode: .error,
                    message: "the database could not switch to write-ahead logging (journal mode is \(journalMode ?? "unknown"))",
                    sql: "PRAGMA journal_mode = WAL")
            }
            try connection.execute("PRAGMA synchronous = FULL")
            try connection.execute("PRAGMA foreign_keys = ON")
        } catch {
            connection.close()
            throw error
        }
        self.path = path
        self.connection = connection
        checkpointer = DatabaseCheckpointer(path: path)
        checkpointer.install(on: connection.handle)
    }

    deinit {
        checkpointer.uninstall(from: connection.handle)
        connection.close()
    }

    /// Runs `body` with the connection inside a read transaction, so every query in it sees the
    /// same snapshot of the file. Inside an open transaction (a `read` nested in a `write`),
    /// `body` joins that transaction instead.
    public func read<T>(_ body: (DatabaseConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        if connection.isInsideTransaction {
            return try body(connection)
        }
        return try inTransaction(beginning: "BEGIN DEFERRED", body)
    }

    /// Runs `body` with the connection inside `BEGIN IMMEDIATE … COMMIT`: the write lock is
    /// taken up front, and every change in `body` is committed together, or — when `body` or
    /// the commit throws — none of them is.
    ///
    /// Writes that wait for the connection at the same moment share one transaction, each in
    /// its own savepoint: one that throws is rolled back to its savepoint alone, and the rest
    /// commit together. Should a failing write end the whole transaction (as SQLite does for
    /// some errors), the writes grouped before it run again in a new one, so `body` may run
    /// more than once and must only read and write through its argument.
    ///
    /// A write made with `waitingForDisk` false commits without waiting for the disk when every
    /// write of its group does too (`synchronous=NORMAL` for that commit): it survives the
    /// process being killed, but a power loss may lose it.
    ///
    /// - Throws: whatever `body` throws, after rolling back; ``SQLiteError`` when the
    ///   transaction cannot begin (for example inside another transaction) or commit.
    public func write<T>(waitingForDisk: Bool = true, _ body: (DatabaseConnection) throws -> T) throws -> T {
        if lock.try() {
            defer { lock.unlock() }
            if connection.isInsideTransaction {
                // This thread is inside a transaction of its own; SQLite refuses to nest one.
                return try inTransaction(beginning: "BEGIN IMMEDIATE", body)
            }
        }
        return try withoutActuallyEscaping(body) { body in
            var result: Result<T, any Error>?
            let job = DatabaseWriteJob(waitsForDisk: waitingForDisk) { connection in
                do {
                    result = .success(try body(connection))
                    return true
                } catch {
                    result = .failure(error)
                    return false
                }
            }
            writes.perform(job, runGroup: runGroup)
            if let failure = job.failure { throw failure }
            guard let result else {
                throw SQLiteError(extendedResultCode: .error, message: "the write did not run", sql: nil)
            }
            return try result.get()
        }
    }

    /// Runs a group of queued writes: a lone one exactly as a single transaction, several in
    /// savepoints of shared transactions.
    private func runGroup(_ group: [DatabaseWriteJob]) {
        lock.lock()
        defer { lock.unlock() }
        let waitsForDisk = group.contains(where: \.waitsForDisk)
        do {
            try setCommitsWaitForDisk(waitsForDisk)
        } catch {
            // A group that cannot relax commits as any other; one that must wait never runs without.
            guard !waitsForDisk else {
                for job in group { job.failure = error }
                return
            }
        }
        runJobs(group)
        if !waitsForDisk { try? setCommitsWaitForDisk(true) }
    }

    /// Sets whether the connection's commits wait for the disk (`synchronous` FULL or NORMAL).
    private func setCommitsWaitForDisk(_ waits: Bool) throws {
        guard waits == commitsWithoutWaitingForDisk else { return }
        try connection.execute(waits ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
        commitsWithoutWaitingForDisk = !waits
    }

    /// Runs a group's writes on the connection this thread holds.
    private func runJobs(_ group: [DatabaseWriteJob]) {
        guard group.count > 1 else {
            for job in group { runAlone(job) }
            return
        }
        var remaining = group[...]
        while !remaining.isEmpty {
            remaining = commitTogether(remaining)
        }
    }

    /// Runs a lone write as any transaction runs: begin, the body, commit, or roll back.
    private func runAlone(_ job: DatabaseWriteJob) {
        struct BodyFailed: Error {}
        do {
            try inTransaction(beginning: "BEGIN IMMEDIATE") { connection in
                // The body keeps its own error in the job's result.
                guard job.run(connection) else { throw BodyFailed() }
            }
            queuedCommits += 1
        } catch is BodyFailed {
        } catch {
            job.failure = error
        }
    }

    /// Runs `jobs` in one transaction, each in a savepoint, and commits them together; returns
    /// the writes still to run when a failing one ended the transaction early.
    private func commitTogether(_ jobs: ArraySlice<DatabaseWriteJob>) -> ArraySlice<DatabaseWriteJob> {
        do {
            try connection.execute("BEGIN IMMEDIATE")
        } catch {
            for job in jobs { job.failure = error }
            return []
        }
        var included: [DatabaseWriteJob] = []
        for (offset, job) in zip(jobs.indices, jobs) {
            var ran = false
            var succeeded = false
            do {
                try connection.execute("SAVEPOINT grouped_write")
                ran = true
                succeeded = job.run(connection)
                if succeeded {
                    try connection.execute("RELEASE grouped_write")
                } else if connection.isInsideTransaction {
                    try connection.execute("ROLLBACK TO grouped_write")
                    try connection.execute("RELEASE grouped_write")
                }
            } catch {
                // A body that failed keeps its own error; any other write gets this one.
                if !ran || succeeded { job.failure = error }
                rollBack()
                return included[...] + jobs[(offset + 1)...]
            }
            guard connection.isInsideTransaction else {
                // SQLite ended the transaction with this write's failure: the writes before
                // it were rolled back too, and run again in the next transaction.
                return included[...] + jobs[(offset + 1)...]
            }
            if succeeded { included.append(job) }
        }
        do {
            try connection.execute("COMMIT")
            queuedCommits += 1
        } catch {
            rollBack()
            for job in included { job.failure = error }
        }
        return []
    }

    /// Begins a transaction with `begin`, runs `body`, and commits, or rolls back when `body`
    /// or the commit throws. The caller holds the lock.
    private func inTransaction<T>(beginning begin: String, _ body: (DatabaseConnection) throws -> T) throws -> T {
        try connection.execute(begin)
        do {
            let result = try body(connection)
            try connection.execute("COMMIT")
            return result
        } catch {
            rollBack()
            throw error
        }
    }

    private func rollBack() {
        // SQLite rolls some failures back by itself; only an open transaction needs it.
        guard connection.isInsideTransaction else { return }
        sqlite3_exec(connection.handle, "ROLLBACK", nil, nil, nil)
    }
}
