import CSQLite
import Dispatch
import Synchronization

/// Copies a database's write-ahead log back into its file on a connection and thread of its
/// own, so that no write waits for most of it.
///
/// SQLite's automatic checkpoint runs inside the commit that brings the log past 1,000 pages:
/// that commit writes the pages into the file and waits for the disk twice, while every write
/// queued behind it waits too. With a checkpointer installed on the writer:
///
/// - a commit that brings the log ``backgroundPages`` pages past its start, or past what the
///   last checkpoint found, asks for a passive checkpoint on the checkpointer's queue, which
///   runs beside later writes and reads (a passive checkpoint takes no lock a writer or reader
///   waits for);
/// - the first commit after that checkpoint copies the rest of the log itself, when fewer than
///   ``backgroundPages`` pages are left, so the whole log is in the file and the next write
///   starts it over (a log is only started over once all of it is copied, which a checkpoint
///   beside steady writes never sees: it may even stop short of the last commit, whose writer
///   can still hold the pages before it);
/// - should the log still reach ``inlinePages`` (readers holding old pages, or writes
///   outrunning the disk), the commit checkpoints itself, as SQLite would have, so the log stays
///   bounded.
///
/// So a log under steady writes is copied once, not again at every commit past the threshold.
final class DatabaseCheckpointer: @unchecked Sendable {
    /// Pages written to the log since its start or its last checkpoint at which a checkpoint is
    /// asked for: SQLite's own threshold.
    static let backgroundPages: Int32 = 1_000
    /// Pages of log after a commit at which the writer checkpoints itself.
    static let inlinePages: Int32 = 4_000

    private let path: String
    private let queue = DispatchQueue(label: "SQLiteLedger.DatabaseCheckpointer")
    private let progress = Mutex(Progress())
    // The checkpointer's own connection, opened on first use; touched on `queue` only.
    private var connection: OpaquePointer?

    /// How many checkpoints ran, and where.
    struct Counts: Sendable, Equatable {
        /// Whether a checkpoint is asked for and has not finished yet.
        var isScheduled = false
        /// Checkpoints run on the checkpointer's queue.
        var inBackground = 0
        /// Checkpoints the writer ran in its commit to copy what was written while one ran on
        /// the queue.
        var finishing = 0
        /// Checkpoints the writer ran in its commit because the log reached ``inlinePages``.
        var inline = 0
        /// Times a commit found the log started over, all of it having been copied.
        var logsStartedOver = 0
    }

    /// A checkpointer for the database file at `path`.
    init(path: String) {
        self.path = path
    }

    /// How many checkpoints ran so far.
    var checkpointCounts: Counts {
        progress.withLock { $0.counts }
    }

    /// Installs the checkpointer on `writer`, in place of SQLite's automatic checkpoint. The
    /// checkpointer must outlive the installation: ``uninstall(from:)`` before it goes.
    func install(on writer: OpaquePointer) {
        sqlite3_wal_hook(writer, walHook, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Removes the checkpointer from `writer`, waits for a checkpoint under way, and closes
    /// its connection.
    func uninstall(from writer: OpaquePointer) {
        sqlite3_wal_hook(writer, nil, nil)
        queue.sync {
            sqlite3_close_v2(connection)
            connection = nil
        }
    }

    /// What a commit of `writer` that left `pages` pages of log asks for.
    fileprivate func committed(pages: Int32, writer: OpaquePointer?) {
        let step = progress.withLock { $0.step(afterCommitWith: pages) }
        switch step {
        case .none:
            return
        case .background(let log):
            queue.async { self.checkpoint(of: log) }
        case .finish, .inline:
            var log: Int32 = 0, copied: Int32 = 0
            guard sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &copied) == SQLITE_OK else { return }
            progress.withLock { progress in
                progress.checkpointed(log: log, copied: copied, of: progress.counts.logsStartedOver)
                if step == .inline { progress.counts.inline += 1 } else { progress.counts.finishing += 1 }
            }
        }
    }

    /// A passive checkpoint on the checkpointer's connection, asked for by a commit to the
    /// log numbered `generation`. A failure (the file could not be opened, a reader still
    /// holds every page) leaves the log to the next one.
    private func checkpoint(of generation: Int) {
        var log: Int32 = 0, copied: Int32 = 0
        let result = connectionOpened().map { sqlite3_wal_checkpoint_v2($0, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &copied) }
        progress.withLock { progress in
            progress.checkpointedInBackground(log: log, copied: copied, of: generation, succeeded: result == SQLITE_OK)
        }
    }

    /// The checkpointer's connection, opened on first use; nil when the file cannot be opened.
    private func connectionOpened() -> OpaquePointer? {
        if let connection { return connection }
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK else {
            sqlite3_close_v2(handle)
            return nil
        }
        // The file's pages are copied from the log and flushed as the writer's would be; a
        // connection finds the file in WAL mode, and opens its log, only once it reads it.
        guard sqlite3_exec(handle, "PRAGMA synchronous = FULL", nil, nil, nil) == SQLITE_OK,
              sqlite3_exec(handle, "SELECT count(*) FROM sqlite_schema", nil, nil, nil) == SQLITE_OK
        else {
            sqlite3_close_v2(handle)
            return nil
        }
        connection = handle
        return handle
    }
}

/// SQLite's write-ahead log hook: called on the writer's thread after each commit, with the
/// write lock released, and with how many pages the log holds.
private let walHook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = {
    context, writer, _, pages in
    guard let context else { return SQLITE_OK }
    Unmanaged<DatabaseCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(pages: pages, writer: writer)
    return SQLITE_OK
}
