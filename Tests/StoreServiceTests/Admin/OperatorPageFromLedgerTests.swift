import Foundation
import StoreCore
import StorePolicy
@testable import StoreService
import Testing

/// The operator page as `storerules ledger metrics --html` draws it from a ledger alone: the
/// same page and sections as `GET /admin`, what waits and the experiments read from the ledger,
/// the policy given, and a word where only a running service knows (decisions, the policy's
/// history, the experiments' report pages).
@Suite struct OperatorPageFromLedgerTests {
    @Test("the page from a ledger shows what waits and the experiments, the policy given, and says where the decisions are")
    func pageFromLedger() throws {
        let folder = try ExampleFolderCopy(policy: OperatorPageContentTests.policy)
        defer { folder.remove() }
        try RouterTestService.test(configure: { $0.folder = folder.url.path }) { service in
            try OperatorPageContentTests.seed(service, folder: folder)
            let ledger = service.router.service.ledger
            let engine = try PolicyEngine(source: PolicySource(text: OperatorPageContentTests.policy))
            let now = Date()
            let metrics = try ledger.subscriptionMetrics(SubscriptionMetricsQuery(from: now.addingTimeInterval(-29 * 86_400), to: now,
                                                                                  interval: .day, asOf: now))
            var logged: [String] = []
            let page = OperatorPage.render(ledger: ledger, named: "ledger.sqlite", metrics: metrics, engine: engine) { logged.append($0) }
            #expect(logged.isEmpty, "\(logged)")
            for section in ["metrics", "policy", "decisions", "waiting", "experiments"] {
                #expect(page.contains("<section id=\"\(section)\">"), "section \(section)")
            }
            #expect(page.contains("ledger ledger.sqlite, policy \(String(engine.version.prefix(12)))"), "where the page comes from")
            #expect(page.contains("<code>\(engine.version)</code>") && page.contains("grant") && page.contains("show_merchandising"), "the policy given")
            #expect(page.contains("Decisions are counted by a running service"))
            #expect(page.contains("<td>7600</td><td>gil</td><td>seed.bag.new</td>"), "the unfinished transaction")
            #expect(page.contains("<td>7400</td><td>productId</td><td>pellet.box</td><td>pellet.bag</td>"), "the conflict")
            #expect(page.contains("notifications reconciled up to 2025-11-30 00:00:00 UTC"), "the checkpoint")
            #expect(page.contains("<td>sampler_hero</td>") && !page.contains("href=\"/admin/experiments"), "no link to a route it does not serve")
            #expect(page.contains("storerules experiments report"))
            #expect(!page.contains("<script") && !OperatorPageContentTests.hasEventAttribute(page))
            #expect(OperatorPageContentTests.unclosedElements(in: page).isEmpty)

            let withoutPolicy = OperatorPage.render(ledger: ledger, named: "ledger.sqlite", metrics: metrics, engine: nil) { _ in }
            #expect(withoutPolicy.contains("No policy was given") && withoutPolicy.contains("ledger ledger.sqlite · read"))
        }
    }
}
