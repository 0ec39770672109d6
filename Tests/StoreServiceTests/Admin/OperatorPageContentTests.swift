import Foundation
import StoreCore
import StorePolicy
@testable import StoreService
import Testing

/// The operator page of a service with something in every section: a failed reload in the
/// policy's history, decisions from each source with a failure naming its line, an unfinished
/// transaction, a kept notification, a conflict, a refund request, a reconciliation checkpoint
/// and a declared experiment; written without script, form or anything from outside, every
/// element it opens closed.
@Suite struct OperatorPageContentTests {
    static let policy = """
        local policy = { experiments = { sampler_hero = { variants = { control = 1, sampler = 1 } } } }
        function policy.show_merchandising(ctx, placement)
            if placement == "garden" then error("no merchandising in the " .. placement) end
            return true
        end
        function policy.grant(ctx, tx, product)
            if tx.product_id == "seed.bag.new" then error("seed bags are not sold yet") end
            return {}
        end
        return policy
        """

    @Test("every section shows what the service and its ledger hold")
    func everySection() throws {
        let folder = try ExampleFolderCopy(policy: Self.policy)
        defer { folder.remove() }
        try RouterTestService.test(configure: { $0.folder = folder.url.path; $0.recordsOutgoingEvents = true }) { service in
            try Self.seed(service, folder: folder)
            let ledger = service.router.service.ledger
            let now = Date().millisecondsSince1970
            let taken = try ledger.claimOutgoingEvents(at: now, heldUntil: now + 60_000, limit: 1)
            try ledger.recordOutgoingEventAttempts(taken.map { (id: $0.id, attempt: .failed(error: "HTTP 500 from the backend")) },
                                                heldUntil: now + 60_000)
            let response = OperatorPageSignInTests.page(service, authorization: OperatorPageSignInTests.basic(RouterTestService.adminKey))
            #expect(response.status == 200, "\(response.bodyText)")
            let page = response.bodyText
            for section in ["policy", "decisions", "waiting", "experiments"] {
                #expect(page.contains("<section id=\"\(section)\">"), "section \(section)")
            }
            let version = service.router.service.engine.version
            #expect(page.contains("<code>\(version)</code>"), "the version serving")
            #expect(page.contains("start, \(folder.url.path)"), "where the policy came from")
            #expect(page.contains("POST /v1/admin/reload") && page.contains("<span class=\"bad\">failed</span>"), "the failed reload")
            #expect(page.contains("syntax error"), "what the reload failed on")
            let fallback = "<span class=\"bad\">1</span>"
            #expect(page.contains("<td>show_merchandising</td><td>1</td><td>0</td><td>\(fallback)</td><td>1</td><td>0</td><td>\(fallback)</td>"))
            #expect(page.contains("<td>features</td><td>0</td><td>1</td><td>0</td><td>0</td><td>1</td><td>0</td>"), "the default of a missing hook")
            #expect(page.contains("show_merchandising (policy.lua:3): error:") && page.contains("no merchandising in the garden"),
                    "the failure's reason and line")
            #expect(page.contains("<td>7600</td><td>gil</td><td>seed.bag.new</td>"), "the unfinished transaction")
            #expect(page.contains("<td>7200</td>"), "the kept notification's transaction")
            #expect(page.contains("<td>7400</td><td>productId</td><td>pellet.box</td><td>pellet.bag</td>"), "the conflict")
            #expect(page.contains("UNINTENDED_PURCHASE") && page.contains("1 pending"), "the refund request")
            #expect(page.contains("notifications reconciled up to 2025-11-30 00:00:00 UTC"), "the checkpoint")
            let failed = try #require(taken.first)
            #expect(page.contains("<td>\(failed.id)</td>") && page.contains("HTTP 500 from the backend"), "the event given up")
            #expect(page.contains("1 given up"), "the outbox's counts")
            #expect(page.contains("<a href=\"/admin/experiments/sampler_hero\">sampler_hero</a>"), "the experiment's report")
            let experiment = OperatorPageSignInTests.page(service, path: "/admin/experiments/sampler_hero",
                                                          authorization: OperatorPageSignInTests.basic(RouterTestService.adminKey))
            #expect(experiment.status == 200)
            #expect(experiment.bodyText.contains("sampler_hero"))
            #expect(experiment.headers["Content-Security-Policy"] == OperatorPage.contentSecurityPolicy)
        }
    }

    @Test("the page runs nothing, loads nothing from outside, changes nothing, and closes every element it opens")
    func strictAndWellFormed() throws {
        let folder = try ExampleFolderCopy(policy: Self.policy)
        defer { folder.remove() }
        try RouterTestService.test(configure: { $0.folder = folder.url.path }) { service in
            try Self.seed(service, folder: folder)
            let response = service.respond("GET", "/admin", key: RouterTestService.adminKey)
            #expect(response.status == 200)
            #expect(response.headers["Content-Security-Policy"]
                    == "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
            #expect(response.headers["X-Content-Type-Options"] == "nosniff")
            #expect(response.headers["Cache-Control"] == "no-store")
            // An inline SVG names its namespace with a URL, which loads nothing.
            let page = response.bodyText.lowercased().replacingOccurrences(of: #"xmlns="http://www.w3.org/2000/svg""#, with: "")
            for forbidden in ["<script", "<form", "<input", "<button", "<iframe", "<link", "src=", "http://", "https://", "javascript:", " on"] {
                #expect(!page.contains(forbidden) || (forbidden == " on" && !Self.hasEventAttribute(page)), "\(forbidden)")
            }
            #expect(Self.unclosedElements(in: response.bodyText).isEmpty, "\(Self.unclosedElements(in: response.bodyText))")
        }
    }

    @Test("a text from the ledger is escaped")
    func textIsEscaped() throws {
        try RouterTestService.test { service in
            let hostile = "<img src=x onerror=alert(1)>"
            let bought = try service.sign(BackyardBirdsPayloads.consumable(id: "7700", productID: "seed.bag.new"))
            #expect(try service.respond("POST", "/v1/transactions", json: ["customer": hostile, "signed_transaction": bought]).status == 200)
            let page = service.respond("GET", "/admin", key: RouterTestService.adminKey).bodyText
            #expect(!page.contains(hostile))
            #expect(page.contains(HTMLText.escape(hostile)))
        }
    }

    /// Fills every section of `service`'s page.
    static func seed(_ service: RouterTestService, folder: ExampleFolderCopy) throws {
        let admin = RouterTestService.adminKey
        try "this is not Lua".write(to: folder.url.appending(path: "policy.lua"), atomically: true, encoding: .utf8)
        #expect(service.respond("POST", "/v1/admin/reload", key: admin).status == 422)
        #expect(service.respond("POST", "/v1/decisions/show_merchandising", body: #"{"args": ["garden"]}"#).object["source"] as? String == "fallback")
        #expect(service.respond("POST", "/v1/decisions/show_merchandising", body: #"{"args": ["store"]}"#).object["source"] as? String == "policy")
        #expect(service.respond("POST", "/v1/decisions/features", body: "{}").object["source"] as? String == "default")
        let unlisted = try service.sign(BackyardBirdsPayloads.consumable(id: "7600", productID: "seed.bag.new"))
        #expect(try service.respond("POST", "/v1/transactions", json: ["customer": "gil", "signed_transaction": unlisted])
            .object["outcome"] as? String == "unfinished")
        let kept = try service.sign(BackyardBirdsPayloads.notification(type: .oneTimeCharge, signedTransaction: try service.sign(
            BackyardBirdsPayloads.consumable(id: "7200", appAccountToken: "3F2504E0-4F89-41D3-9A0C-0305E82C3301"))))
        #expect(try service.respond("POST", "/v1/notifications", json: ["signedPayload": kept], key: nil).object["status"] as? String == "pending")
        let bought = try service.sign(BackyardBirdsPayloads.consumable(id: "7400"))
        #expect(try service.respond("POST", "/v1/transactions", json: ["customer": "dee", "signed_transaction": bought]).status == 200)
        let contradicting = try service.sign(BackyardBirdsPayloads.notification(
            type: .oneTimeCharge, signedTransaction: try service.sign(BackyardBirdsPayloads.consumable(id: "7400", productID: "pellet.bag"))))
        #expect(try service.respond("POST", "/v1/notifications", json: ["signedPayload": contradicting], key: nil)
            .object["status"] as? String == "conflict")
        let ledger = service.router.service.ledger
        let now = Date().millisecondsSince1970
        try ledger.recordConsumptionRequest(ConsumptionRequestRecord(
            notificationUUID: "refund-1", transactionID: "7400", originalTransactionID: "7400", transactionJWS: bought,
            reason: "UNINTENDED_PURCHASE", receivedDate: now, deadlineDate: now + 12 * 3_600_000))
        try ledger.setReconciliationMark(.checkpoint, key: Reconciler.checkpointKey, value: String(Date(timeIntervalSince1970: 1_764_460_800).millisecondsSince1970))
    }

    /// Whether an element of `page` carries an event handler attribute (`onload=`, `onerror=`…).
    static func hasEventAttribute(_ page: String) -> Bool {
        page.range(of: #"<[^>]*\son[a-z]+\s*="#, options: .regularExpression) != nil
    }

    /// The elements of `html` opened and not closed, or closed without being open, in order.
    static func unclosedElements(in html: String) -> [String] {
        let void: Set<String> = ["meta", "br", "img", "hr", "input", "link", "!doctype"]
        var open: [String] = []
        var wrong: [String] = []
        let tag = try! Regex(#"<(/?)(!?[A-Za-z][A-Za-z0-9]*)[^>]*?(/?)>"#)
        for match in html.matches(of: tag) {
            let closing = match.output[1].substring == "/"
            let name = String(match.output[2].substring ?? "").lowercased()
            if void.contains(name) || match.output[3].substring == "/" { continue }
            if !closing {
                open.append(name)
            } else if open.last == name {
                open.removeLast()
            } else {
                wrong.append("</\(name)> while \(open.last ?? "nothing") is open")
            }
        }
        return wrong + open.map { "<\($0)> never closed" }
    }
}
