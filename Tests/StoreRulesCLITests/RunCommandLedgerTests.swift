import Foundation
import PostgresLedger
import ServiceCommandLine
import StoreCore
import Testing
import TestPrerequisites

/// `storerules run --ledger`: the journey played into a ledger the command line names.
@Suite struct RunCommandLedgerTests {
    @Test("a journey plays into a PostgreSQL ledger, with the store's state in --store-state",
          .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil), "needs STORERULES_TEST_POSTGRES_URL"))
    func journeyIntoPostgres() throws {
        let workspace = try LedgerWorkspace()
        let url = try LedgerWorkspace.freshPostgresLedger()
        let state = workspace.sqliteLedger("store.sqlite")
        let result = try CommandRunner.run(["run", "Examples/CaffeinePal", "--json", "--ledger", url, "--store-state", state])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: state))
        let ledger = try LedgerLocation(url).open()
        #expect(!(try ledger.customers().isEmpty))
        #expect(try ledger.checkInvariants().isEmpty)

        let again = try CommandRunner.run(["run", "Examples/CaffeinePal", "--ledger", url,
                                           "--store-state", workspace.sqliteLedger("other.sqlite")])
        #expect(again.status == 1)
        #expect(again.standardError.contains("the ledger holds customers"), "\(again.standardError)")
    }

    @Test("on a PostgreSQL ledger the Backyard Birds journey wins a lapsed Premium watcher back with offer type 4",
          .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil), "needs STORERULES_TEST_POSTGRES_URL"))
    func winBackIntoPostgres() throws {
        let workspace = try LedgerWorkspace()
        let url = try LedgerWorkspace.freshPostgresLedger()
        let result = try CommandRunner.run(["run", "Examples/BackyardBirds", "--json", "--ledger", url,
                                            "--store-state", workspace.sqliteLedger("store.sqlite")])
        #expect(result.status == 0, "\(result.standardError)")
        let steps = result.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        try #require(steps.count == 13)
        let stores = (steps[10]["plan"] as? [String: Any])?["subscription_stores"] as? [[String: Any]]
        #expect((stores?.first?["win_back"] as? [String: Any])?["offer_id"] as? String == "premium.welcome.back")
        let ledger = try LedgerLocation(url).open()
        let premium = try ledger.transactions(customerID: "watcher-1").filter { $0.productID == "pass.premium" }
        #expect(premium.last?.offerType == .winBackOffer)
        #expect(premium.last?.offerID == "premium.welcome.back")
        #expect(premium.last?.price == 2990)
        #expect(try ledger.checkInvariants().isEmpty)
    }

    @Test("a PostgreSQL ledger without --store-state, or --store-state without a ledger, is a usage mistake")
    func storeStateRules() throws {
        let withoutState = try CommandRunner.run(["run", "Examples/CaffeinePal", "--ledger", "postgresql://127.0.0.1:1/none"])
        #expect(withoutState.status == 64)
        #expect(withoutState.standardError.contains("--store-state"), "\(withoutState.standardError)")
        let withoutLedger = try CommandRunner.run(["run", "Examples/CaffeinePal", "--store-state", "/tmp/unused.sqlite"])
        #expect(withoutLedger.status == 64)
    }
}
