import Foundation
import ServiceCommandLine
import StoreService
import Testing
import TestPrerequisites

/// One process of a fleet reconciles at a time: while one holds a ledger's reconciliation lock,
/// another is turned away at once, and gets it once the first is done.
@Suite struct ReconciliationLockTests {
    static func exclusive(_ first: any ReconciliationLock, _ second: any ReconciliationLock) async throws {
        let inside = try await first.withLockIfFree { () async throws -> Int? in
            try await second.withLockIfFree { 1 }
        }
        #expect(inside == .some(nil), "the second is turned away while the first holds the lock")
        #expect(try await second.withLockIfFree { 2 } == 2, "and gets it once the first let go")
    }

    @Test func aSQLiteLedgerIsReconciledByOneProcessAtATime() async throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "lock-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path + ".reconcile.lock") }
        try await Self.exclusive(LedgerLocation.sqlite(path: path).reconciliationLock, LedgerLocation.sqlite(path: path).reconciliationLock)
    }

    @Test(.enabled(if: TestPrerequisite.runs(LedgerBackend.postgresServerURL != nil), "set STORERULES_TEST_POSTGRES_URL to a PostgreSQL server"))
    func aPostgreSQLLedgerIsReconciledByOneInstanceOfAFleetAtATime() async throws {
        let url = try #require(LedgerBackend.postgresServerURL)
        try await Self.exclusive(LedgerLocation.postgres(url: url).reconciliationLock, LedgerLocation.postgres(url: url).reconciliationLock)
    }
}
