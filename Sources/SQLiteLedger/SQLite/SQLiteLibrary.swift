import CSQLite

/// The SQLite library's process-wide settings, made before its first connection opens.
enum SQLiteLibrary {
    /// Configures the library, once: without memory statistics, so that connections on
    /// different threads do not take one global mutex for every allocation (nothing here reads
    /// `sqlite3_memory_used`). Evaluated before each connection opens; it has no effect when
    /// another part of the process initialized SQLite first.
    static let configured: Void = {
        _ = storerules_sqlite_disable_memory_statistics()
    }()
}
