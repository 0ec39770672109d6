import Foundation
import Testing
@testable import StoreCore
import SQLiteLedger
import TestPrerequisites

@Suite struct LedgerPersistenceTests {
    @Test func reopeningTheLedgerKeepsEverythingAtTheCurrentSchemaVersion() throws {
        let directory = try SQLiteTemporaryDirectory()
        let path = directory.path("ledger.sqlite")
        let payload = LedgerFixtures.transaction(id: "7000", quantity: 2)
        do {
            let ledger = try Ledger(path: path)
            try ledger.ingest(transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        }
        let reopened = try Ledger(path: path)
        #expect(try SQLiteLedgerMigrationHost(database: reopened.sqlite).schemaVersion() == Ledger.schemaVersion)
        #expect(try reopened.sqlite.read { try $0.fetchValue(Int.self, "PRAGMA user_version") } == Ledger.schemaVersion)
        #expect(try reopened.transaction(id: "7000")?.jwsRepresentation == LedgerFixtures.jws(payload))
        #expect(try reopened.balance(of: "pellet", customerID: "ada") == 10)
        let again = try reopened.ingest(transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        #expect(again.outcome == .alreadyFinished)
    }

    @Test func twoLedgersOnOneFileSeeEachOthersWrites() throws {
        let directory = try SQLiteTemporaryDirectory()
        let path = directory.path("ledger.sqlite")
        let first = try Ledger(path: path)
        let second = try Ledger(path: path)
        let payload = LedgerFixtures.transaction(id: "7001")
        try first.ingest(transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        let redelivered = try second.ingest(transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        #expect(redelivered.outcome == .alreadyFinished)
        #expect(try second.balance(of: "pellet", customerID: "ada") == 5)
    }

    @Test func aCorruptLedgerFileFailsClearlyAndStaysUntouched() throws {
        let directory = try SQLiteTemporaryDirectory()
        let path = directory.path("ledger.sqlite")
        let garbage = Data(String(repeating: "not a ledger, just text. ", count: 400).utf8)
        try garbage.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SQLiteError.self) { try Ledger(path: path) }
        #expect(error?.resultCode == .notADatabase)
        #expect(error?.description.contains("file is not a database") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test func aLedgerWrittenByANewerVersionIsRefusedAndLeftAlone() throws {
        let directory = try SQLiteTemporaryDirectory()
        let path = directory.path("ledger.sqlite")
        do {
            let ledger = try Ledger(path: path)
            try ledger.sqlite.write { try $0.execute("PRAGMA user_version = \(Ledger.schemaVersion + 1)") }
        }
        let error = #expect(throws: LedgerMigrationError.self) { try Ledger(path: path) }
        guard case .schemaTooNew(let found, let known) = error else {
            Issue.record("expected schemaTooNew, got \(String(describing: error))")
            return
        }
        #expect(found == Ledger.schemaVersion + 1)
        #expect(known == Ledger.schemaVersion)
    }
}
