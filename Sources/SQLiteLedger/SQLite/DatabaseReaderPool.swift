import CSQLite
import Dispatch
import Synchronization

/// Read-only connections to one SQLite file in WAL mode, each lent to one thread at a time,
/// so reads run beside the writer and beside each other.
final class DatabaseReaderPool: Sendable {
    /// How many connections the pool holds.
    let size: Int
    private let idle: Mutex<[SendableConnection]>
    private let available: DispatchSemaphore

    /// A connection handed between threads by the pool, never used by two at once.
    private struct SendableConnection: @unchecked Sendable {
        let connection: DatabaseConnection
    }

    /// Opens `size` read-only connections to the file at `path`, which must exist.
    init(path: String, size: Int, busyTimeoutMilliseconds: Int32 = 5000) throws {
        var connections: [SendableConnection] = []
        for _ in 0..<size {
            var handle: OpaquePointer?
            let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
            let code = sqlite3_open_v2(path, &handle, flags, nil)
            guard code == SQLITE_OK, let handle else {
                let error = SQLiteError(connection: handle, code: code, sql: nil)
                sqlite3_close_v2(handle)
                connections.forEach { $0.connection.close() }
                throw error
            }
            sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
            let connection = DatabaseConnection(handle: handle)
            do {
                try connection.execute("PRAGMA query_only = ON")
            } catch {
                connection.close()
                connections.forEach { $0.connection.close() }
                throw error
            }
            connections.append(SendableConnection(connection: connection))
        }
        self.size = size
        idle = Mutex(connections)
        available = DispatchSemaphore(value: size)
    }

    deinit {
        close()
    }

    /// Closes every connection. The writer should close last: only a read-write connection
    /// that closes last removes the write-ahead log beside the file.
    func close() {
        idle.withLock { connections in
            connections.forEach { $0.connection.close() }
            connections.removeAll()
        }
    }

    /// Runs `body` with an idle connection inside a read transaction (one snapshot), waiting
    /// for one when all are lent.
    func read<T>(_ body: (DatabaseConnection) throws -> T) throws -> T {
        available.wait()
        let lent = idle.withLock { $0.removeLast() }
        defer {
            idle.withLock { $0.append(lent) }
            available.signal()
        }
        let connection = lent.connection
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
