/// A PostgreSQL session-level advisory lock that at most one process of a fleet holds at a time,
/// on a connection of its own: taken without waiting (`pg_try_advisory_lock`), released when the
/// work is done — or when the process dies, since the server drops a closed session's locks.
public final class PostgresSessionLock: @unchecked Sendable {
    /// The database's URL.
    public let url: String
    /// The lock's key.
    public let key: Int64

    /// A lock on `key` in the database at `url`.
    public init(url: String, key: Int64) {
        self.url = url
        self.key = key
    }

    /// Runs `body` holding the lock when no other session holds it, and returns its result; nil,
    /// without running it, when another session holds the lock.
    ///
    /// - Throws: ``PostgresError`` when the database cannot be reached; `body`'s error.
    public func withLockIfFree<T>(_ body: () async throws -> T) async throws -> T? {
        let connection = try PostgresConnection(url: url)
        let taken: Bool = try connection.execute("SELECT pg_try_advisory_lock($1) AS taken", [.integer(key)]).first?
            .decode(column: "taken") ?? false
        guard taken else { return nil }
        defer { _ = try? connection.execute("SELECT pg_advisory_unlock($1)", [.integer(key)]) }
        return try await body()
    }
}
