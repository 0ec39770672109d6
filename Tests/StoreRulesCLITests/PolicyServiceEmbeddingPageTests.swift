import Foundation
import StoreCore
import SQLiteLedger
import StorePolicy
import Testing
import TestPrerequisites

/// `docs/embedding.md`: its Swift code compiles and runs here, verbatim.
@Suite struct PolicyServiceEmbeddingPageTests {
    static let page = CommandRunner.packageRoot.appendingPathComponent("docs/embedding.md")

    @Test func theEmbeddingPagesCodeRunsAndDecidesAsItSays() throws {
        let directory = try TestFolders.make("embedding")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A copy of the example, whose policy the reload below changes.
        let folderURL = directory.appendingPathComponent("BackyardBirds")
        try FileManager.default.copyItem(at: CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds"), to: folderURL)
        let ledgerPath = directory.appendingPathComponent("ledger.sqlite").path
        let rootPEM = ServiceProcess.authority.rootCertificate.pemRepresentation
        let signedTransaction = try SignedFixtures.sign(SignedFixtures.consumable(id: "1001", quantity: 2))
        let signedPayload = try SignedFixtures.sign(SignedFixtures.notification(
            type: .subscribed, subtype: .initialBuy,
            signedTransaction: try SignedFixtures.sign(SignedFixtures.pass(original: "2001", period: 0, of: 1)),
            signedRenewalInfo: try SignedFixtures.sign(SignedFixtures.renewalInfo(original: "2001", autoRenew: true))))

        // Load a policy folder and decide.
        let folder = try PolicyFolder(folderURL)
        let catalog = try folder.loadCatalog()
        let engine = try PolicyEngine(source: try folder.policySource(),
                                      catalog: catalog.map(PolicyCatalog.init) ?? .empty)

        let context = PolicyContext(customer: CustomerContext(id: "ada", statusKnown: true))
        let merchandising = engine.showMerchandising(context, placement: "home")
        // merchandising.value is the decision; merchandising.failure says why the default
        // applied when the hook failed (nil when the policy decided).
        let plan = engine.storefrontPlan(context, placement: "store")
        // plan.products, plan.subscriptionStores, plan.storeButtons, plan.decisions …

        #expect(merchandising.value == true)
        #expect(merchandising.failure == nil)
        #expect(plan.subscriptionStores.first?.plans.map(\.id) == ["pass.premium", "pass.family", "pass.individual"])

        // Verify signed data and ingest it with the policy's grant decision.
        let ledger = try Ledger(path: ledgerPath)
        let verifier = try SignedDataVerifier(
            rootCertificates: try X509Certificate.certificates(pemRepresentation: rootPEM),
            bundleId: "com.example.backyardbirds", environment: .sandbox)
        let grant = engine.grantDecision(for: ledger, catalog: catalog)

        let transaction = try verifier.verifyAndDecodeTransaction(signedTransaction)
        let result = try ledger.ingest(transaction: transaction, jwsRepresentation: signedTransaction,
                                       customerID: "ada", decide: grant)
        // result.outcome: .granted([Grant(item: "pellet", amount: 10)]) the first time,
        // .alreadyFinished when the same transaction comes again.

        #expect(result.outcome == .granted([Grant(item: "pellet", amount: 10)]))
        #expect(try ledger.ingest(transaction: transaction, jwsRepresentation: signedTransaction,
                                  customerID: "ada", decide: grant).outcome == .alreadyFinished)

        // A notification: verify it, then each signed JWS it carries, then ingest.
        let notification = try verifier.verifyAndDecodeNotification(signedPayload)
        let renewal = try notification.data?.signedTransactionInfo.map(verifier.verifyAndDecodeTransaction)
        let renewalInfo = try notification.data?.signedRenewalInfo.map(verifier.verifyAndDecodeRenewalInfo)
        let processed = try ledger.ingest(notification: notification, transaction: renewal,
                                          renewalInfo: renewalInfo, customerID: "ada", decide: grant)

        guard case .processed(let subscribed?, .inserted?) = processed else {
            Issue.record("expected the notification processed with its transaction and renewal info, got \(processed)")
            return
        }
        #expect(subscribed.outcome == .granted([]))

        // Read what the customer owns, and decide for them.
        let state = try ledger.customerState(customerID: "ada", catalog: catalog)
        // state.entitledProductIDs, state.balances, state.subscriptionStatus(forGroup:),
        // state.isEligibleForIntroOffer(groupID:), state.unfinishedTransactions …

        var customer = CustomerContext(state)
        customer.fillMissingGroupLevels(from: engine.catalog)
        let ledgerContext = PolicyContext(now: state.date, storefront: catalog?.storefront.countryCode ?? "USA",
                                          environment: .sandbox, customer: customer)
        let storefront = engine.storefrontPlan(ledgerContext, placement: "home")
        let features = try engine.features(forCustomer: "ada", ledger: ledger, catalog: catalog)

        #expect(state.entitledProductIDs == ["pass.premium"])
        #expect(state.balances == ["pellet": 10])
        #expect(state.subscriptionStatus(forGroup: "6F3A93AB")?.state == .subscribed)
        #expect(storefront.showMerchandising == false)
        #expect(storefront.subscriptionStores.first?.currentProductID == "pass.premium")
        #expect(features.value == ["unlimited_backyards", "decorations", "family_sharing", "rare_birds"])

        // Reload without a restart.
        let serving = engine.version
        let script = folderURL.appendingPathComponent("policy.lua")
        try (try String(contentsOf: script, encoding: .utf8) + "\n-- changed while serving\n").write(to: script, atomically: true, encoding: .utf8)
        do {
            let version = try engine.reload(try folder.policySource())
            // `version` serves the next decisions; decisions already running finish on the old one.
            print("now serving", version)
        } catch {
            // `error` names the script, line and reason; the previous policy keeps serving.
            print(error)
        }

        let watcher = PolicyWatcher(folder: folder, engine: engine)
        let change = watcher.reloadIfChanged()
        // nil when policy.lua did not change; otherwise one line: reloaded, or why not.

        #expect(engine.version != serving, "the documented reload serves the changed script")
        #expect(try engine.reload(try folder.policySource()) == engine.version, "without an error, and the version it reports serves")
        #expect(change == nil)
    }

    @Test func everySwiftBlockOfTheEmbeddingPageIsInTheTestAbove() throws {
        let page = try String(contentsOf: Self.page, encoding: .utf8)
        let source = Self.normalizedLines(try String(contentsOfFile: #filePath, encoding: .utf8))
        let blocks = page.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count >= 4)
        for block in blocks {
            let lines = Self.normalizedLines(block)
            let found = source.indices.contains { start in
                start + lines.count <= source.count && Array(source[start..<start + lines.count]) == lines
            }
            #expect(found, "docs/embedding.md has Swift code this test does not run:\n\(block)")
        }
    }

    static let sessionTools = ["/bin/bash", "/usr/bin/openssl", "/usr/bin/basenc"]

    @Test(.enabled(if: TestPrerequisite.runs(sessionTools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }), "needs bash, openssl and basenc"))
    func theEmbeddingPagesSessionRunsAsShown() throws {
        let page = try String(contentsOf: Self.page, encoding: .utf8)
        let section = try #require(page.components(separatedBy: "## 5. A session").dropFirst().first)
        let fences = section.components(separatedBy: "```")
        #expect(fences.count >= 4)
        let script = fences[1].replacingOccurrences(of: "sh\n", with: "", options: .anchored)
            .replacingOccurrences(of: "swift build --product PolicyService\n", with: "")
            .replacingOccurrences(of: #""$REPO/.build/debug/PolicyService""#, with: "'\(ServiceProcess.executable.path)'")
        let shown = fences[3].split(separator: "\n").map(String.init)

        let (process, output) = try CommandRunner.bash(script)
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map(String.init)
        process.waitUntilExit()

        #expect(process.terminationStatus == 0)
        #expect(printed.map(Self.shape) == shown.map(Self.shape), "\(printed.joined(separator: "\n"))")
    }

    /// What a session line must keep when the policy or the clock changes: the start of the
    /// stderr line, or the reply's id and whether it is a result or which kind of error.
    static func shape(_ line: String) -> String {
        if line.hasPrefix("PolicyService:") { return "PolicyService: serving" }
        guard let reply = try? JSONSerialization.jsonObject(with: Data(line.prefix { $0 != "…" }.utf8)) as? [String: Any] else {
            return String(line.prefix(while: { $0 != "," }))
        }
        let id = reply["id"].map { "\($0)" } ?? "none"
        let kind = (reply["error"] as? [String: Any])?["kind"] as? String ?? "result"
        return "\(id) \(kind)"
    }

    /// The non-empty lines of `text`, without their indentation.
    static func normalizedLines(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
