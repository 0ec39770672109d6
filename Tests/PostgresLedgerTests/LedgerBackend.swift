import Foundation
import PostgresLedger
import ServiceCommandLine
import StoreCore
import TestPrerequisites

/// A ledger storage the shared ledger suite runs on: SQLite always, PostgreSQL when
/// `STORERULES_TEST_POSTGRES_URL` names a server (as `scripts/test.sh` sets it).
enum LedgerBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    /// The server the PostgreSQL cases use, when one is given.
    static let postgresServerURL = ProcessInfo.processInfo.environment["STORERULES_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// The backends this run uses: SQLite, and PostgreSQL when a server is given — always under
    /// CI, where a missing server fails the PostgreSQL cases. Which ran is said on standard error.
    static let available: [LedgerBackend] = {
        let backends: [LedgerBackend] = TestPrerequisite.runs(postgresServerURL != nil) ? [.sqlite, .postgres] : [.sqlite]
        let note = backends.count == 2 ? "" : " (PostgreSQL skipped: set STORERULES_TEST_POSTGRES_URL; scripts/test.sh starts a server)"
        FileHandle.standardError.write(Data("ledger backend suites run on: \(backends.map(\.rawValue).joined(separator: ", "))\(note)\n".utf8))
        return backends
    }()

    var description: String { rawValue }

    /// A new, empty ledger location of this backend: a SQLite file in a fresh folder, or a
    /// fresh database on the test server.
    func freshLocation() throws -> LedgerLocation {
        switch self {
        case .sqlite:
            let folder = try TestFolders.make("ledger")
            return .sqlite(path: folder.appending(path: "ledger.sqlite").path)
        case .postgres:
            guard let server = Self.postgresServerURL else { throw BackendUnavailable() }
            let name = "ledger_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            try PostgresConnection(url: server).execute("CREATE DATABASE \(name)")
            return .postgres(url: Self.url(server, database: name))
        }
    }

    /// A new, empty ledger of this backend.
    func freshLedger() throws -> Ledger {
        try freshLocation().open()
    }

    /// `server` with its database name replaced by `database`.
    static func url(_ server: String, database: String) -> String {
        let withoutQuery = server.split(separator: "?", maxSplits: 1).first.map(String.init) ?? server
        guard let scheme = withoutQuery.range(of: "://"),
              let slash = withoutQuery[scheme.upperBound...].firstIndex(of: "/")
        else { return withoutQuery + "/" + database }
        return String(withoutQuery[..<slash]) + "/" + database
    }

    /// The PostgreSQL cases ran without a server.
    struct BackendUnavailable: Error, CustomStringConvertible {
        var description: String { "no PostgreSQL server: set STORERULES_TEST_POSTGRES_URL (scripts/test.sh starts one)" }
    }
}
