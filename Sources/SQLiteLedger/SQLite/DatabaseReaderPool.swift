import CSQLite
import StoreCore

/// Read-only connections to one SQLite file in WAL mode, each lent to one thread at a time,
/// so reads run beside the writer and beside each other: StoreCore's `ConnectionPool` over
/// connections all opened at once.
final class DatabaseReaderPool: Sendable {
    /// How many connections the pool holds.
    let size: Int
    private let pool: ConnectionPool<DatabaseConnection, Never>

    /// Opens `size` read-only connections to the file at `path`, which must exist.
    init(path: String, size: Int, busyTimeoutMilliseconds: Int32 = 5000) throws {
        SQLiteLibrary.configured
        var connections: [DatabaseConnection] = []
        for _ in 0..<size {
            var handle: OpaquePointer?
            let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
            let code = sqlite3_open_v2(path, &handle, flags, nil)
            guard code == SQLITE_OK, let handle else {
                let error = SQLiteError(connection: handle, code: code, sql: nil)
                sqlite3_close_v2(handle)
                connections.forEach { $0.close() }
                throw error
            }
            sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
            let connection = DatabaseConnection(handle: handle)
            do {
                try connection.execute("PRAGMA query_only = ON")
            } catch {
                connection.close()
                connections.forEach { $0.close() }
                throw error
            }
            connections.append(connection)
        }
        self.size = size
        pool = ConnectionPool(connections: connections)
    }

    deinit {
        close()
    }

    /// Closes every connection. The writer should close last: only a read-write connection
    /// that closes last removes the write-ahead log beside the file.
    func close() {
        pool.closeIdleConnections { $0.close() }
    }

    /// Runs `body` with an idle connection inside a read transaction (one snapshot), waiting
    /// for one when all are lent.
    func read<T>(_ body: (DatabaseConnection) throws -> T) throws -> T {
        try pool.withConnection { connection in try Self.read(on: connection, body) }
    }

    /// Runs `body` on `connection` inside one read transaction.
    private static func read<T>(on connection: DatabaseConnection, _ body: (DatabaseConnection) throws -> T) throws -> T {
        try connection.execute("BEGIN DEFERRED")
        do {
            let result = try body(connection)
            try connection.execute("COMMIT")
            return result
        } catch {
            if connection.isInsideTransaction {
                sqlite3_exec(connection.handle, "ROLLBACK", nil, nil, nil)
            }
            throw error
        }
    }
}
