import Foundation
import PostgresLedger
import Testing

/// The server the PostgreSQL tests run against: the URL in `STORERULES_TEST_POSTGRES_URL`.
/// Without it, the suites that need a server are skipped.
enum PostgresTestServer {
    /// The server's URL, or `nil` when the variable is unset or empty.
    static let url: String? = ProcessInfo.processInfo.environment["STORERULES_TEST_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Whether a server is configured.
    static var isConfigured: Bool { url != nil }

    /// Why a suite that needs a server is skipped.
    static let skipReason: Comment = "set STORERULES_TEST_POSTGRES_URL to a PostgreSQL server (scripts/test.sh starts one)"
}

/// A database of its own on the test server, created empty and dropped when released, so tests
/// run in parallel without seeing each other's tables, locks or sessions.
final class PostgresTestDatabase: Sendable {
    /// The database's name: `storerules_test_` and random hexadecimal digits.
    let name: String
    /// A URL naming the database on the test server.
    let url: String

    /// Creates the database on the test server.
    init() throws {
        guard let server = PostgresTestServer.url, var components = URLComponents(string: server) else {
            throw PostgresError(kind: .client, sqlState: nil, message: "no test server is configured", sql: nil)
        }
        name = "storerules_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        components.path = "/" + name
        url = components.string ?? server
        // A database name is an identifier, which cannot be a parameter; this one is ours.
        try PostgresConnection(url: server).execute("CREATE DATABASE \(name)")
    }

    /// A new connection to the database.
    func connect() throws -> PostgresConnection {
        try PostgresConnection(url: url)
    }

    /// Ends the session of server process `pid` and waits until it is gone.
    func terminate(backend pid: Int32) throws {
        let admin = try connect()
        let terminated = try admin.execute("SELECT pg_terminate_backend($1::integer) AS terminated", [.integer(Int64(pid))])
        #expect(try terminated.first?.decode(Bool.self, column: "terminated") == true)
        let deadline = Date(timeIntervalSinceNow: 10)
        while try !admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [.integer(Int64(pid))]).isEmpty {
            guard Date() < deadline else { Issue.record("backend \(pid) was still running 10 s after pg_terminate_backend"); return }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    deinit {
        guard let server = PostgresTestServer.url else { return }
        _ = try? PostgresConnection(url: server).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}
