import Foundation
import PostgresLedger
import ServiceCommandLine

/// A database of the bench's own on the server it was given, created empty for the run and
/// dropped at ``drop()``.
public struct BenchPostgresDatabase: Sendable {
    /// The server's URL, as given.
    public let serverURL: String
    /// The database's name: `storerules_bench_` and random hexadecimal digits.
    public let name: String
    /// A URL naming the database on the server.
    public let url: String

    /// Creates the database on the server at `serverURL`.
    public init(serverURL: String) throws {
        guard var components = URLComponents(string: serverURL) else {
            throw BenchFailure("--postgres \(LedgerLocation.maskingPasswords(in: serverURL)) is not a URL")
        }
        self.serverURL = serverURL
        name = "storerules_bench_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        components.path = "/" + name
        guard let url = components.string else { throw BenchFailure("--postgres: the URL cannot name another database") }
        self.url = url
        // A database name is an identifier, which cannot be a parameter; this one is ours.
        _ = try PostgresConnection(url: serverURL).execute("CREATE DATABASE \(name)")
    }

    /// The value of the server setting `name`, as `SHOW` prints it.
    public func setting(_ name: String) throws -> String {
        try PostgresConnection(url: url).execute("SELECT current_setting($1) AS value", [.text(name)]).first?
            .decode(String.self, column: "value") ?? ""
    }

    /// Drops the database, ending any session still in it.
    public func drop() throws {
        _ = try PostgresConnection(url: serverURL).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}
