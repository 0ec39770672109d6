import Foundation
import Testing
import TestPrerequisites

/// `storerules ledger copy`: a ledger moved from SQLite to PostgreSQL holds the same customers.
@Suite("storerules ledger copy")
struct LedgerCopyCommandTests {
    @Test("A scripted month's SQLite ledger copied to a fresh PostgreSQL database reads the same for every customer",
          .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil), "set STORERULES_TEST_POSTGRES_URL to a PostgreSQL server"))
    func sqliteToPostgres() throws {
        let month = try ScriptedMonth.played.get()
        let workspace = try LedgerWorkspace()
        // A copy of the month's file, so the shared month stays as it was played.
        let source = workspace.sqliteLedger("month.sqlite")
        try FileManager.default.copyItem(atPath: month.ledger, toPath: source)
        let target = try LedgerWorkspace.freshPostgresLedger()
        let copy = try LedgerWorkspace.ledger("copy", "--from", source, "--to", target)
        #expect(copy.status == 0, "\(copy.standardError)")
        #expect(copy.standardOutput.hasPrefix("ledger copy: from "))
        #expect(copy.standardOutput.contains("\n  customers: 1\n"), "\(copy.standardOutput)")
        for kind in ["transactions", "signed versions", "renewal infos", "grants", "processed notifications", "pending notifications",
                     "notification conflicts", "merchandising events"] {
            #expect(copy.standardOutput.contains("\n  \(kind): "), "\(kind)")
        }
        for customer in [ScriptedMonth.customer] {
            let before = try LedgerWorkspace.ledger("customer", customer, "--ledger", source, LedgerWorkspace.folder, "--json")
            let after = try LedgerWorkspace.ledger("customer", customer, "--ledger", target, LedgerWorkspace.folder, "--json")
            #expect(before.status == 0 && after.status == 0, "\(before.standardError)\(after.standardError)")
            #expect(!before.standardOutput.isEmpty)
            #expect(after.standardOutput == before.standardOutput)
        }
        let check = try LedgerWorkspace.ledger("check", "--ledger", target)
        #expect(check.status == 0, "\(check.standardOutput)")
    }

    @Test("A target that holds a customer is refused, in one line with exit status 1")
    func nonEmptyTarget() throws {
        let workspace = try LedgerWorkspace()
        let source = workspace.sqliteLedger("source.sqlite")
        let target = workspace.sqliteLedger("target.sqlite")
        for ledger in [source, target] {
            _ = try workspace.ingest(try workspace.file([try SignedFixtures.sign(SignedFixtures.consumable(id: "copy-1"))]),
                                     ledger: ledger, customer: "ada")
        }
        let copy = try LedgerWorkspace.ledger("copy", "--from", source, "--to", target)
        #expect(copy.status == 1)
        #expect(copy.standardError.hasPrefix("storerules ledger: "))
        #expect(copy.standardError.split(separator: "\n").count == 1)
    }
}
