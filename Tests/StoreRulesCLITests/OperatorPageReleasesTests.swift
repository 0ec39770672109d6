import Foundation
import Testing
import TestPrerequisites

/// The operator page of an instance following a fleet's releases: the fleet's publishes and
/// rollbacks from the ledger, and each release this instance swapped in, in its history; a
/// browser on the same machine signs in to it with the admin key as Basic credentials.
@Suite(.serialized, .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil), "needs STORERULES_TEST_POSTGRES_URL"))
struct OperatorPageReleasesTests {
    @Test("the page lists the fleet's releases and the ones this instance swapped in")
    func releasesOnThePage() throws {
        let ledger = try LedgerWorkspace.freshPostgresLedger()
        let example = CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds")
        #expect(try CommandRunner.run(["policy", "publish", example.path, "--ledger", ledger]).status == 0)
        let server = try ServeProcess(ledger: ledger, extra: ["--policy-from-ledger"])
        let first = try #require(try server.request("GET", "/v1/admin/policy", key: ServeProcess.adminKey).json["version"] as? String)
        let edited = server.folder.appendingPathComponent("policy.lua")
        try (try String(contentsOf: edited, encoding: .utf8) + "\n-- edited\n").write(to: edited, atomically: true, encoding: .utf8)
        #expect(try CommandRunner.run(["policy", "publish", server.folder.path, "--ledger", ledger]).status == 0)
        try Self.waitUntil(server, serves: { $0 != first })
        #expect(try CommandRunner.run(["policy", "rollback", "1", "--ledger", ledger]).status == 0)
        try Self.waitUntil(server, serves: { $0 == first })

        let basic = "Basic " + Data("operator:\(ServeProcess.adminKey)".utf8).base64EncodedString()
        let page = try server.request("GET", "/admin", key: nil, headers: ["Authorization": basic])
        #expect(page.status == 200, "\(page.text)")
        #expect(page.headers["content-security-policy"]?.hasPrefix("default-src 'none'") == true)
        #expect(page.text.contains("<h3>Releases of the fleet</h3>"))
        for row in ["<td>3</td><td>rollback</td>", "<td>2</td><td>publish</td>", "<td>1</td><td>publish</td>"] {
            #expect(page.text.contains(row), "\(row)")
        }
        #expect(page.text.contains("release 2 (publish, ") && page.text.contains("release 3 (rollback, "), "this instance's history")
        #expect(page.text.contains("start, the ledger&#39;s newest release"))
    }

    private static func waitUntil(_ server: ServeProcess, serves accepted: (String) -> Bool) throws {
        for _ in 0..<500 {
            if let version = try server.request("GET", "/v1/admin/policy", key: ServeProcess.adminKey).json["version"] as? String,
               accepted(version) { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        Issue.record("the instance did not switch within 10 s: \(server.standardError)")
    }
}
