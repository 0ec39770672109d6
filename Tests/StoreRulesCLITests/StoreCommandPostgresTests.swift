import Foundation
import Testing
import TestPrerequisites

/// `storerules store` over a PostgreSQL ledger: the store's own state and certificates in files.
@Suite("storerules store on a PostgreSQL ledger")
struct StoreCommandPostgresTests {
    @Test("store purchase with a postgresql:// ledger and --store-state grants into the database",
          .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil), "set STORERULES_TEST_POSTGRES_URL to a PostgreSQL server"))
    func purchaseIntoPostgres() throws {
        let url = try LedgerWorkspace.freshPostgresLedger()
        let state = try LedgerWorkspace().sqliteLedger("store.sqlite")
        let result = try CommandRunner.run(["store", LedgerWorkspace.folder, "--ledger", url, "--store-state", state,
                                            "purchase", "pellet.box", "--customer", "ada", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect((object["grant"] as? [String: Any])?["state"] as? String == "granted")
        #expect(try LedgerWorkspace.balances(of: "ada", ledger: url) == ["pellet": 5])
        #expect(FileManager.default.fileExists(atPath: state))
        #expect(FileManager.default.fileExists(atPath: state + ".certificates"))
    }

    @Test("store with a PostgreSQL ledger and no --store-state is a usage error naming the option")
    func storeStateRequired() throws {
        let result = try CommandRunner.run(["store", LedgerWorkspace.folder, "--ledger", "postgresql://nobody@127.0.0.1:1/none",
                                            "purchase", "pellet.box"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("a PostgreSQL ledger needs --store-state FILE"))
        #expect(result.standardError.contains("--help"))
    }
}
