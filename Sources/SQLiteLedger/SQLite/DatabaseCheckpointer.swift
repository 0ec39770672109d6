import CSQLite
import Dispatch
import Synchronization

/// Copies a database's write-ahead log back into its file on a connection and thread of its
/// own, so that no write waits for it.
///
/// SQLite's automatic checkpoint runs inside the commit that brings the log past 1,000 pages:
/// that commit writes the pages into the file and waits for the disk twice, while every write
/// queued behind it waits too. With a checkpointer installed on the writer, a commit past
/// ``backgroundPages`` only asks for a passive checkpoint on the checkpointer's queue, which
/// runs beside later writes and reads (a passive checkpoint takes no lock a writer or reader
/// waits for). Should the log still reach ``inlinePages`` (readers holding old pages, or writes
/// outrunning the disk), the commit checkpoints itself, as SQLite would have, so the log stays
/// bounded.
final class DatabaseCheckpointer: @unchecked Sendable {
    /// Pages of log after a commit at which a checkpoint is asked for: SQLite's own default.
    static let backgroundPages: Int32 = 1_000
    /// Pages of log after a commit at which the writer checkpoints itself.
    static let inlinePages: Int32 = 4_000

    private let path: String
    private let queue = DispatchQueue(label: "SQLiteLedger.DatabaseCheckpointer")
    private let counts = Mutex(Counts())
    // The checkpointer's own connection, opened on first use; touched on `queue` only.
    private var connection: OpaquePointer?

    /// How many checkpoints ran, and where.
    struct Counts: Sendable, Equatable {
        /// Whether a checkpoint is asked for and has not finished yet.
        var isScheduled = false
        /// Checkpoints run on the checkpointer's queue.
        var inBackground = 0
        /// Checkpoints the writer ran in its commit because the log reached ``inlinePages``.
        var inline = 0
    }

    /// A checkpointer for the database file at `path`.
    init(path: String) {
        self.path = path
    }

    /// How many checkpoints ran so far.
    var checkpointCounts: Counts {
        counts.withLock { $0 }
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
        if pages >= Self.inlinePages {
            sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            counts.withLock { $0.inline += 1 }
            return
        }
        guard pages >= Self.backgroundPages else { return }
        let asks = counts.withLock { counts in
            defer { counts.isScheduled = true }
            return !counts.isScheduled
        }
        guard asks else { return }
        queue.async { self.checkpoint() }
    }

    /// A passive checkpoint on the checkpointer's connection. A failure (the file could not be
    /// opened, a reader still holds every page) leaves the log to the next one.
    private func checkpoint() {
        defer { counts.withLock { $0.isScheduled = false } }
        if connection == nil {
            var handle: OpaquePointer?
            let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
            guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK else {
                sqlite3_close_v2(handle)
                return
            }
            // The file's pages are copied from the log and flushed as the writer's would be; a
            // connection finds the file in WAL mode, and opens its log, only once it reads it.
            guard sqlite3_exec(handle, "PRAGMA synchronous = FULL", nil, nil, nil) == SQLITE_OK,
                  sqlite3_exec(handle, "SELECT count(*) FROM sqlite_schema", nil, nil, nil) == SQLITE_OK
            else {
                sqlite3_close_v2(handle)
                return
            }
            connection = handle
        }
        guard sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil) == SQLITE_OK else { return }
        counts.withLock { $0.inBackground += 1 }
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
