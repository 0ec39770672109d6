import Foundation
import PostgresLedger
import SQLiteLedger
import StoreCore
import Testing

/// Exposures are the one record the ledger commits without waiting for the disk; every other
/// write, before and after one, still waits.
@Suite struct LedgerWriteDurabilityTests {
    /// Whether the write's commit waits for the disk, as its database says.
    static func waitsForDisk(_ writing: any LedgerWriting) throws -> Bool {
        if let sqlite = writing as? SQLLedgerTransaction<DatabaseConnection> {
            let level = try #require(try sqlite.connection.rows("PRAGMA synchronous").first).integer(at: 0)
            return level >= 2
        }
        let postgres = try #require(writing as? SQLLedgerTransaction<PostgresConnection>)
        return try #require(try postgres.connection.rows("SHOW synchronous_commit").first).text(at: 0) != "off"
    }

    @Test("a write committed without waiting for the disk leaves the next write waiting again", arguments: LedgerBackend.available)
    func committedThenDisk(on backend: LedgerBackend) throws {
        let location = try backend.freshLocation()
        if case .postgres(let url) = location {
            // The test server commits without waiting by default; a server in service waits.
            let database = try #require(url.split(separator: "/").last.map(String.init))
            try PostgresConnection(url: url).execute("ALTER DATABASE \(database) SET synchronous_commit = on")
        }
        let ledger = try location.open()
        #expect(try ledger.storage.write { try Self.waitsForDisk($0) })
        #expect(try !ledger.storage.write(durability: .committed) { try Self.waitsForDisk($0) })
        #expect(try ledger.storage.write { try Self.waitsForDisk($0) })
    }
}
