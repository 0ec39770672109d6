import Foundation
import Synchronization
import Testing
import TestPrerequisites

/// `storerules policy publish|list|rollback` and instances that follow the releases.
@Suite(.serialized, .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil), "needs STORERULES_TEST_POSTGRES_URL"))
struct PolicyReleaseTests {
    /// A copy of the Backyard Birds folder whose `plan_icon` for the Premium pass is `icon`.
    private static func folder(icon: String) throws -> URL {
        let folder = try TestFolders.make("release")
        let example = CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds")
        try FileManager.default.copyItem(at: example.appendingPathComponent("Products.storekit"), to: folder.appendingPathComponent("Products.storekit"))
        let original = try String(contentsOf: example.appendingPathComponent("policy.lua"), encoding: .utf8)
        let end = try #require(original.range(of: "return policy", options: .backwards))
        let policy = original.replacingCharacters(in: end, with: """
                local original_plan_icon = policy.plan_icon
                function policy.plan_icon(ctx, plan)
                    if plan.id == "pass.premium" then return "\(icon)" end
                    return original_plan_icon(ctx, plan)
                end
                return policy
                """)
        try policy.write(to: folder.appendingPathComponent("policy.lua"), atomically: true, encoding: .utf8)
        return folder
    }

    private static func policy(_ arguments: String...) throws -> CommandRunner.Result {
        try CommandRunner.run(["policy"] + arguments)
    }

    @Test("a policy whose tests fail, or that does not compile, is not published")
    func onlyCheckedPoliciesArePublished() throws {
        let ledger = try LedgerWorkspace.freshPostgresLedger()
        let broken = try Self.folder(icon: "star")
        try "return {".write(to: broken.appendingPathComponent("policy.lua"), atomically: true, encoding: .utf8)
        let refused = try Self.policy("publish", broken.path, "--ledger", ledger)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("nothing was published"), "\(refused.standardError)")
        let failing = try Self.folder(icon: "star")
        try "function test_fails() expect_eq(1, 2) end\n".write(to: failing.appendingPathComponent("policy_test.lua"), atomically: true, encoding: .utf8)
        let untested = try Self.policy("publish", failing.path, "--ledger", ledger)
        #expect(untested.status == 1)
        #expect(untested.standardError.contains("1 test failed; nothing was published"), "\(untested.standardError)")
        #expect(try Self.policy("list", "--ledger", ledger).standardOutput.contains("no releases yet"))
        let published = try Self.policy("publish", try Self.folder(icon: "star").path, "--ledger", ledger)
        #expect(published.status == 0, "\(published.standardError)")
        #expect(published.standardOutput.hasPrefix("policy publish: release 1, version "))
        let listed = try Self.policy("list", "--ledger", ledger, "--json")
        let releases = try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]])
        #expect(releases.count == 1)
        #expect(releases.first?["action"] as? String == "publish")
        let sqlite = try Self.policy("list", "--ledger", FileManager.default.temporaryDirectory.appendingPathComponent("x.sqlite").path)
        #expect(sqlite.status == 64)
    }

    @Test("instances following the ledger switch to a release within a second, with no failed request, and back on rollback")
    func instancesFollowReleases() throws {
        let ledger = try LedgerWorkspace.freshPostgresLedger()
        #expect(try Self.policy("publish", try Self.folder(icon: "star").path, "--ledger", ledger).status == 0)
        let instances = try (0..<2).map { _ in try ServeProcess(ledger: ledger, extra: ["--policy-from-ledger"]) }
        func icons() throws -> [String?] {
            try instances.map { instance in
                let reply = try instance.request("POST", "/v1/decisions/plan_icon", json: ["ctx": [String: Any](), "args": ["pass.premium"]])
                return reply.status == 200 ? reply.json["result"] as? String : "failed \(reply.status)"
            }
        }
        #expect(try icons() == ["star", "star"])
        let reload = try instances[0].request("POST", "/v1/admin/reload", key: ServeProcess.adminKey)
        #expect(reload.status == 409, "an instance following the releases reloads nothing from its folder")
        let failures = Mutex(0)
        let stop = Mutex(false)
        let loadEnded = DispatchSemaphore(value: 0)
        let load = Thread {
            defer { loadEnded.signal() }
            while !stop.withLock({ $0 }) {
                for instance in instances {
                    let reply = try? instance.request("GET", "/v1/customers/ana/storefront?placement=home")
                    if reply?.status != 200 { failures.withLock { $0 += 1 } }
                }
            }
        }
        load.start()
        let published = try Self.policy("publish", try Self.folder(icon: "moon").path, "--ledger", ledger)
        #expect(published.status == 0, "\(published.standardError)")
        let switched = Date()
        var seen: [String?] = []
        while Date().timeIntervalSince(switched) < 10 {
            seen = try icons()
            if seen == ["moon", "moon"] { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        // How soon a release reaches an instance is checked on the follower itself; here,
        // that every instance serves it, under load, with no request failing.
        #expect(seen == ["moon", "moon"], "every instance served the release within \(Date().timeIntervalSince(switched)) s")
        stop.withLock { $0 = true }
        try #require(loadEnded.wait(timeout: .now() + 60) == .success, "the load's last requests were answered")
        #expect(failures.withLock { $0 } == 0)

        let first = try #require(try JSONSerialization.jsonObject(with: Data(Self.policy("list", "--ledger", ledger, "--json").standardOutput.utf8)) as? [[String: Any]]).last
        let version = try #require(first?["version"] as? String)
        let rolledBack = try Self.policy("rollback", String(version.prefix(12)), "--ledger", ledger)
        #expect(rolledBack.status == 0, "\(rolledBack.standardError)")
        var back: [String?] = []
        let rolled = Date()
        while Date().timeIntervalSince(rolled) < 10 {
            back = try icons()
            if back == ["star", "star"] { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(back == ["star", "star"])
        #expect(try Self.policy("rollback", "nope", "--ledger", ledger).status == 1)
    }

    @Test("a release that changes the catalog serves its script and catalog together, under a version of both")
    func aReleaseWithAnotherCatalogServesIt() throws {
        let ledger = try LedgerWorkspace.freshPostgresLedger()
        #expect(try Self.policy("publish", try Self.folder(icon: "star").path, "--ledger", ledger).status == 0)
        let server = try ServeProcess(ledger: ledger, extra: ["--policy-from-ledger"])
        let before = try server.request("GET", "/v1/admin/policy", key: ServeProcess.adminKey).json["version"] as? String
        let repriced = try Self.folder(icon: "star")
        let catalog = repriced.appendingPathComponent("Products.storekit")
        let text = try String(contentsOf: catalog, encoding: .utf8)
        try text.replacingOccurrences(of: "\"displayPrice\" : \"0.99\"", with: "\"displayPrice\" : \"1.29\"")
            .write(to: catalog, atomically: true, encoding: .utf8)
        let published = try Self.policy("publish", repriced.path, "--ledger", ledger)
        #expect(published.status == 0, "\(published.standardError)")
        #expect(!published.standardOutput.contains("already serves"), "the script alone is unchanged, the catalog is not")
        var prices: [String] = []
        for _ in 0..<200 {
            let plan = try server.request("GET", "/v1/customers/ana/storefront").json
            prices = (plan["products"] as? [[String: Any]] ?? []).compactMap { $0["display_price"] as? String }
            if prices.contains("$1.29") { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(prices.contains("$1.29"), "\(prices)")
        let after = try server.request("GET", "/v1/admin/policy", key: ServeProcess.adminKey).json["version"] as? String
        #expect(after != nil && after != before)
        let again = try Self.policy("publish", repriced.path, "--ledger", ledger)
        #expect(again.status == 0)
        #expect(again.standardOutput.contains("already serves"), "\(again.standardOutput)")
        let listed = try Self.policy("list", "--ledger", ledger)
        #expect(listed.standardOutput.hasPrefix("release\tversion\taction\treleased\n"))
        #expect(listed.standardOutput.split(separator: "\n").count == 3, "a header and two releases: \(listed.standardOutput)")
        let byNumber = try Self.policy("rollback", "1", "--ledger", ledger)
        #expect(byNumber.status == 0, "\(byNumber.standardError)")
        #expect(byNumber.standardOutput.contains("version \(before ?? "")"))
        let twice = try Self.policy("rollback", "1", "--ledger", ledger)
        #expect(twice.status == 1)
        #expect(twice.standardError.contains("already serves"))
    }

    @Test("serve refuses a folder without a catalog, and so does publish")
    func foldersWithoutACatalogAreRefused() throws {
        let folder = try CommandRunner.policyFolder("return {}")
        let ledger = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).sqlite").path
        let served = try CommandRunner.run(["serve", folder.path, "--ledger", ledger, "--bundle-id", ServiceProcess.bundleId,
                                            "--environment", "Xcode", "--insecure-no-auth", "--listen", "127.0.0.1:0"])
        #expect(served.status == 1)
        #expect(served.standardError.contains("has no .storekit catalog"), "\(served.standardError)")
        let published = try Self.policy("publish", folder.path, "--ledger", try LedgerWorkspace.freshPostgresLedger())
        #expect(published.status == 1)
        #expect(published.standardError.contains("has no .storekit catalog"))
    }
}
