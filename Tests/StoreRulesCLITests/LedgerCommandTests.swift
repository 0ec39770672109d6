import Foundation
import StoreCore
import SQLiteLedger
import Testing
import TestPrerequisites

/// `storerules ledger customer`, `retry`, `check` and `migrate`.
@Suite("storerules ledger")
struct LedgerCommandTests {
    let workspace: LedgerWorkspace
    let ledger: String

    /// A SQLite ledger where ada bought two boxes of pellets and a Premium pass.
    init() throws {
        workspace = try LedgerWorkspace()
        ledger = workspace.sqliteLedger()
        let lines = try [SignedFixtures.consumable(id: "box-1"), SignedFixtures.consumable(id: "box-2"),
                         SignedFixtures.pass(original: "pass-1", period: 0, of: 1)].map { try SignedFixtures.sign($0) }
        let result = try workspace.ingest(try workspace.file(lines), ledger: ledger, customer: "ada")
        try #require(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    }

    @Test("customer --json holds the entitlements answer; with DIR, the features the policy unlocks")
    func customerJSON() throws {
        let bare = try LedgerWorkspace.ledger("customer", "ada", "--ledger", ledger, "--json")
        #expect(bare.status == 0, "\(bare.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bare.standardOutput.utf8)) as? [String: Any])
        #expect(object["customer"] as? String == "ada")
        #expect(object["balances"] as? [String: Int] == ["pellet": 10])
        #expect(object["entitlements"] as? [String] == ["pass.premium"])
        #expect((object["subscriptions"] as? [String: Any])?["6F3A93AB"] != nil)
        #expect(object["unfinished_transactions"] as? [String] == [])
        #expect(object["features"] == nil)
        let withPolicy = try LedgerWorkspace.ledger("customer", "ada", "--ledger", ledger, LedgerWorkspace.folder, "--json")
        let decided = try #require(try JSONSerialization.jsonObject(with: Data(withPolicy.standardOutput.utf8)) as? [String: Any])
        #expect((decided["features"] as? [String])?.isEmpty == false)
        #expect(decided["policy_version"] is String)
    }

    @Test("customer prints text: entitlements, the subscription of each group, balances")
    func customerText() throws {
        let result = try LedgerWorkspace.ledger("customer", "ada", "--ledger", ledger)
        #expect(result.status == 0, "\(result.standardError)")
        let text = result.standardOutput
        #expect(text.hasPrefix("Customer ada\nEntitlements: pass.premium\n"))
        #expect(text.contains("  6F3A93AB: pass.premium, subscribed"))
        #expect(text.contains("Balances: 10 pellet\n"))
        #expect(text.contains("Unfinished transactions: none"))
        #expect(!text.contains("Features"))
    }

    @Test("customer names an unknown customer in one line and exits 1")
    func unknownCustomer() throws {
        let result = try LedgerWorkspace.ledger("customer", "nobody", "--ledger", ledger)
        #expect(result.status == 1)
        #expect(result.standardError == "storerules ledger: the ledger \(ledger) has no customer nobody\n")
    }

    @Test("retry grants a transaction left unfinished once the policy has its rule")
    func retryAfterFix() throws {
        let broken = try CommandRunner.policyFolder(
            try String(contentsOfFile: LedgerWorkspace.folder + "/policy.lua", encoding: .utf8)
                .replacingOccurrences(of: #"["nectar.cup"]    = { { item = "nectar", amount = 1 } },"#, with: ""),
            files: ["Products.storekit": try String(contentsOfFile: LedgerWorkspace.folder + "/Products.storekit", encoding: .utf8)])
        let nectar = try SignedFixtures.sign(SignedFixtures.consumable(id: "cup-1", productID: "nectar.cup"))
        let ingested = try workspace.ingest(try workspace.file([nectar]), ledger: ledger, customer: "ada", folder: broken.path)
        #expect(try LedgerWorkspace.objects(ingested.standardOutput).first?["outcome"] as? String == "unfinished")
        let stillBroken = try LedgerWorkspace.ledger("retry", broken.path, "--ledger", ledger)
        #expect(try LedgerWorkspace.objects(stillBroken.standardOutput).map { $0["outcome"] as? String } == ["unfinished"])
        let fixed = try LedgerWorkspace.ledger("retry", LedgerWorkspace.folder, "--ledger", ledger)
        #expect(fixed.status == 0, "\(fixed.standardError)")
        let answers = try LedgerWorkspace.objects(fixed.standardOutput)
        #expect(answers.map { $0["transaction_id"] as? String } == ["cup-1"])
        #expect(answers.map { $0["outcome"] as? String } == ["granted"])
        #expect(try LedgerWorkspace.balances(of: "ada", ledger: ledger) == ["pellet": 10, "nectar": 1])
        let nothingLeft = try LedgerWorkspace.ledger("retry", LedgerWorkspace.folder, "--ledger", ledger)
        #expect(nothingLeft.status == 0 && nothingLeft.standardOutput.isEmpty)
    }

    @Test("check passes a consistent ledger and reports a balance changed behind the ledger's back, exiting 1")
    func checkFindsPlantedViolation() throws {
        let clean = try LedgerWorkspace.ledger("check", "--ledger", ledger)
        #expect(clean.status == 0)
        #expect(clean.standardOutput == "ledger check: 1 customer, no violation\n")
        try Database(path: ledger).write { try $0.execute("UPDATE balance SET amount = amount + 1") }
        let planted = try LedgerWorkspace.ledger("check", "--ledger", ledger)
        #expect(planted.status == 1)
        #expect(planted.standardOutput == "the pellet balance of ada is 11; its grants minus reversals are 10\n")
    }

    @Test("migrate says a SQLite ledger is at the current schema version")
    func migrateSQLite() throws {
        let fresh = workspace.sqliteLedger("fresh.sqlite")
        let result = try LedgerWorkspace.ledger("migrate", "--ledger", fresh)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "ledger migrate: \(fresh) is at schema version \(Ledger.schemaVersion), the current one\n")
        #expect(FileManager.default.fileExists(atPath: fresh))
    }

    @Test("migrate brings a PostgreSQL database's schema up to date, and a second time finds it current",
          .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil), "set STORERULES_TEST_POSTGRES_URL to a PostgreSQL server"))
    func migratePostgres() throws {
        let url = try LedgerWorkspace.freshPostgresLedger()
        for _ in 0..<2 {
            let result = try LedgerWorkspace.ledger("migrate", "--ledger", url)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput == "ledger migrate: \(url) is migrated, its schema current\n")
        }
        #expect(try LedgerWorkspace.ledger("check", "--ledger", url).standardOutput == "ledger check: 0 customers, no violation\n")
    }

    @Test("A missing --ledger and another command's option are usage errors pointing to --help")
    func usageErrors() throws {
        let missing = try LedgerWorkspace.ledger("check")
        #expect(missing.status == 64)
        #expect(missing.standardError.contains("missing --ledger URL"))
        #expect(missing.standardError.contains("--help"))
        let foreign = try LedgerWorkspace.ledger("check", "--ledger", ledger, "--from", ledger)
        #expect(foreign.status == 64)
    }

    @Test("verbs that only read fail on a SQLite path that does not exist, and leave no file behind")
    func readingVerbsCreateNothing() throws {
        let missing = workspace.sqliteLedger("typo.sqlite")
        for arguments in [["check", "--ledger", missing], ["customer", "ada", "--ledger", missing],
                          ["copy", "--from", missing, "--to", workspace.sqliteLedger("target.sqlite")]] {
            let result = try CommandRunner.run(["ledger"] + arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.standardError.contains("does not exist"), "\(arguments): \(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: missing), "\(arguments)")
        }
        let storefront = try CommandRunner.run(["storefront", LedgerWorkspace.folder, "--ledger", missing, "--customer-id", "ada"])
        #expect(storefront.status == 1)
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test("an unreachable PostgreSQL URL's error never shows its password")
    func passwordsStayHidden() throws {
        let url = "postgresql://ledger:s3cret-pw@127.0.0.1:1/rules?connect_timeout=2&password=s3cret-pw"
        let result = try CommandRunner.run(["ledger", "check", "--ledger", url])
        #expect(result.status == 1)
        #expect(!result.standardError.contains("s3cret-pw"), "\(result.standardError)")
        #expect(result.standardError.contains("***"))
    }
}
