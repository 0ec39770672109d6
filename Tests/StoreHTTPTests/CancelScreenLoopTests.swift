import AppStoreServerAPI
import Foundation
import StoreService
import StoreTesting
import Testing
import TestPrerequisites

/// The cancel screen with the local store playing Apple: a subscriber opens it; the store signs
/// a Retention Messaging request and posts it to the service over HTTP, which asks the policy's
/// `retention_message` hook on the customer's state and answers with Apple's body — a
/// promotional offer signed with the store's key, which the store verifies — on SQLite and on
/// PostgreSQL; without the key, or for a request the service must not trust, the store shows
/// Apple's default message.
@Suite struct CancelScreenLoopTests {
    @Test("the cancel screen shows the policy's message: a signed offer, then a cheaper plan after a price rise",
          arguments: ServedStoreLoop.backends)
    func cancelScreen(backend: String) throws {
        let loop = try ServedStoreLoop(backend: backend)
        let token = UUID().uuidString.lowercased()
        _ = try loop.service.answer(.registerCustomer(customerID: "ana", appAccountToken: token))
        let transactionID = try loop.buy("pass.premium", token: token)

        let offered = try loop.store.openCancelScreen(transactionID: transactionID)
        #expect(offered.status == 200)
        #expect(offered.shown == .promotionalOffer(messageID: "4a9d6c2b-1e8f-4b7a-9c3d-5e6f7a8b9c0d", offerID: "premium.three.months",
                                                    keyID: try #require(loop.key?.keyID)), "\(offered.shown) \(loop.log)")

        _ = try loop.service.answer(.recordEvent(customerID: "ana", name: "price_rise_seen", placement: nil))
        let cheaper = try loop.store.openCancelScreen(transactionID: transactionID)
        guard case .alternateProduct(_, let productID) = cheaper.shown else {
            Issue.record("\(cheaper.shown)")
            return
        }
        #expect(productID == "pass.family")
        #expect(cheaper.answer?.alternateProduct != nil)
        #expect(loop.metrics.contains(#"storerules_decisions_total{hook="retention_message",source="policy"} 2"#), "\(loop.metrics)")
    }

    @Test("without the key a promotional offer answers Apple's default message; a payload that does not verify is refused")
    func defaultWithoutKeyAndRefusalOfForgery() throws {
        let loop = try ServedStoreLoop(backend: "sqlite", withStoreAPIKey: false)
        try loop.store.setNotificationURL(nil)
        let transactionID = try loop.buy("pass.premium")
        let screen = try loop.store.openCancelScreen(transactionID: transactionID)
        guard case .defaultMessage = screen.shown else {
            Issue.record("\(screen.shown)")
            return
        }
        let answer = try #require(screen.answer, "an answer, empty")
        #expect(answer.message == nil && answer.alternateProduct == nil && answer.promotionalOffer == nil, "\(answer)")
        #expect(loop.log.contains("needs the in-app purchase key"), "\(loop.log)")

        let forged = loop.router.respond(to: HTTPRequest(method: "POST", path: "/v1/apple/retention", query: [:], headers: [:],
                                                         body: Data(#"{"signedPayload": "e30.e30.AAAA"}"#.utf8)))
        #expect(forged.status == 400, "\(forged.status) \(String(decoding: forged.body, as: UTF8.self))")
        #expect(throws: (any Error).self, "no cancel screen for a transaction the store never sold") {
            try loop.store.openCancelScreen(transactionID: "2000000000000999")
        }
    }

    @Test("a well-formed request signed under a root the service does not trust, or about another app, is refused with 400")
    func refusalOfUntrustedChainAndOtherApp() throws {
        // In Production, where a request names the app it is about by its Apple ID.
        let app = try ServedStoreLoop(backend: "sqlite", withStoreAPIKey: false, environment: .production, appAppleID: 1234)
        let strangerDirectory = try TestFolders.make("stranger-store")
        defer { try? FileManager.default.removeItem(at: strangerDirectory) }
        let stranger = try ServedStoreLoop.store(in: strangerDirectory, authority: try SigningAuthority.generate(),
                                                 environment: .production, appAppleID: 1234)
        let otherApp = try ServedStoreLoop.store(in: app.directory, authority: app.authority, environment: .production, appAppleID: 999)
        try app.store.setNotificationURL(nil)
        var bought: [String] = []
        for store in [app.store, stranger] {
            try store.setRetentionURL(app.baseURL.appending(path: "v1/apple/retention"))
            guard case .success(let purchase) = try store.purchase("pass.premium", customer: "ana"),
                  let id = purchase.payload.transactionId else { throw ServedStoreLoop.Unavailable() }
            bought.append(id)
        }
        #expect(try app.store.openCancelScreen(transactionID: bought[0]).status == 200, "\(app.log)")
        #expect(try otherApp.openCancelScreen(transactionID: bought[0]).status == 400, "another app, under the trusted root")
        #expect(try stranger.openCancelScreen(transactionID: bought[1]).status == 400, "another store's root")
    }
}
