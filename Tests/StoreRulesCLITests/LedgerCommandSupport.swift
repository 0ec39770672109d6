import Foundation
import PostgresLedger
import StoreCore
import Testing
import TestPrerequisites

/// A folder for `storerules ledger` tests: the trusted root's PEM file, input files, and
/// ledgers on SQLite or on the test PostgreSQL server.
struct LedgerWorkspace {
    /// The Backyard Birds policy folder the commands grant with.
    static let folder = CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds").path
    /// The server the PostgreSQL tests use, from `STORERULES_TEST_POSTGRES_URL`; nil skips them.
    static let postgresServer = ProcessInfo.processInfo.environment["STORERULES_TEST_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    let directory: URL
    /// The PEM file of ``ServiceProcess/authority``'s root.
    let rootPath: String

    init() throws {
        directory = try TestFolders.make("ledger-cli")
        rootPath = directory.appendingPathComponent("root.pem").path
        try ServiceProcess.authority.rootCertificate.pemRepresentation.write(toFile: rootPath, atomically: true, encoding: .utf8)
    }

    /// A SQLite ledger's path in the workspace; the file does not exist yet.
    func sqliteLedger(_ name: String = "ledger.sqlite") -> String {
        directory.appendingPathComponent(name).path
    }

    /// The URL of a new, empty database on the test server.
    static func freshPostgresLedger() throws -> String {
        guard let server = postgresServer, var components = URLComponents(string: server) else {
            throw PostgresError(kind: .client, sqlState: nil, message: "no test server is configured", sql: nil)
        }
        let name = "storerules_cli_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try PostgresConnection(url: server).execute("CREATE DATABASE \(name)")
        components.path = "/" + name
        return components.string ?? server
    }

    /// Writes `lines` to a file of the workspace and returns its path.
    func file(_ lines: [String], named name: String = "input-\(UUID().uuidString).txt") throws -> String {
        let path = directory.appendingPathComponent(name).path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `storerules ledger ingest` on the file at `path` with `folder`'s policy, trusting
    /// the workspace's root.
    func ingest(_ path: String, ledger: String, customer: String? = nil, folder: String = Self.folder) throws -> CommandRunner.Result {
        try CommandRunner.run(["ledger", "ingest", folder, "--ledger", ledger, "--root", rootPath,
                               "--bundle-id", ServiceProcess.bundleId, "--environment", "Sandbox", path]
                              + (customer.map { ["--customer", $0] } ?? []))
    }

    /// Runs `storerules ledger ARGUMENTS…`.
    static func ledger(_ arguments: String...) throws -> CommandRunner.Result {
        try CommandRunner.run(["ledger"] + arguments)
    }

    /// Each line of `output` as a JSON object.
    static func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    /// The customer's balances as `ledger customer ID --json` prints them.
    static func balances(of customer: String, ledger: String) throws -> [String: Int] {
        let result = try Self.ledger("customer", customer, "--ledger", ledger, "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        return try #require(object["balances"] as? [String: Int])
    }

    /// `ledger customer ID --ledger URL --json`, as text; "" when the ledger has no such customer.
    static func customerJSON(_ customer: String, ledger: String) throws -> String {
        let result = try Self.ledger("customer", customer, "--ledger", ledger, "--json")
        return result.status == 0 ? result.standardOutput : ""
    }
}
