import Foundation
import StoreCore
import StoreService
import Testing

/// `POST /v1/notifications`: Apple's body processed once, kept for a customer not known yet,
/// kept as a conflict, stored unfinished for a product the catalog lacks; a tampered one
/// stores nothing.
@Suite struct NotificationRouteTests {
    typealias JSON = [String: Any]
    typealias Payloads = BackyardBirdsPayloads

    @Test("a notification posted as Apple posts it is processed once, and a tampered one stores nothing")
    func notificationsAsApplePostsThem() throws {
        try RouterTestService.test { service in
            let box = try service.sign(Payloads.consumable(id: "7001", quantity: 2))
            let token = "6a1f0c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b"
            _ = try service.respond("PUT", "/v1/customers/ana", json: ["app_account_token": token])
            _ = try service.respond("POST", "/v1/transactions", json: ["customer": "ana", "signed_transaction": box])
            let pass = try service.sign(Payloads.pass(original: "7100", period: 0, of: 1))
            _ = try service.respond("POST", "/v1/transactions", json: ["customer": "ana", "signed_transaction": pass])
            let renewal = try service.sign(Payloads.pass(original: "7100", period: 1, of: 2))
            let signedPayload = try service.sign(Payloads.notification(
                type: .didRenew, uuid: "9c000000-0000-4000-8000-000000009001", signedTransaction: renewal))
            // Apple's request body, byte for byte as its documentation shows it, and no API key.
            let body = #"{"signedPayload":"\#(signedPayload)"}"#
            let first = service.respond("POST", "/v1/notifications", key: nil, body: body)
            #expect(first.status == 200, "\(first.bodyText)")
            #expect(first.object["status"] as? String == "processed")
            #expect((first.object["transaction"] as? JSON)?["customer"] as? String == "ana")
            let again = service.respond("POST", "/v1/notifications", key: nil, body: body)
            #expect(again.status == 200)
            #expect(again.object["status"] as? String == "already_processed")

            // A new purchase of ana's (her token), whose notification's signature is tampered
            // with: nothing of it is stored.
            let before = service.respond("GET", "/v1/customers/ana").object
            let purchase = try service.sign(Payloads.consumable(id: "7002", quantity: 3, appAccountToken: token))
            let fresh = try service.sign(Payloads.notification(
                type: .oneTimeCharge, uuid: "9c000000-0000-4000-8000-000000009002", signedTransaction: purchase))
            let tampered = String(fresh.dropLast(4)) + (fresh.hasSuffix("AAAA") ? "BBBB" : "AAAA")
            let refused = try service.respond("POST", "/v1/notifications", json: ["signedPayload": tampered], key: nil)
            #expect(refused.status == 400)
            #expect(refused.errorKind == "verification")
            let after = service.respond("GET", "/v1/customers/ana").object
            #expect(after["balances"] as? [String: Int] == before["balances"] as? [String: Int])
            #expect(after["balances"] as? [String: Int] == ["pellet": 10])
            #expect(after["entitlements"] as? [String] == before["entitlements"] as? [String])
            #expect(after["unfinished_transactions"] as? [String] == [])
            let garbage = service.respond("POST", "/v1/notifications", key: nil, body: "{\"signedPayload\": 5}")
            #expect(garbage.status == 400)
            #expect(garbage.errorKind == "bad_request")
        }
    }

    @Test("a notification for a customer not known yet is kept, answered 200, and granted when the customer registers")
    func notificationsForUnknownCustomersAreKept() throws {
        try RouterTestService.test { service in
            let token = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"
            let notification = try service.sign(Payloads.notification(
                type: .oneTimeCharge, signedTransaction: try service.sign(Payloads.consumable(id: "7200", appAccountToken: token))))
            let kept = try service.respond("POST", "/v1/notifications", json: ["signedPayload": notification], key: nil)
            #expect(kept.status == 200)
            #expect(kept.object["status"] as? String == "pending")
            let registered = try service.respond("PUT", "/v1/customers/bea", json: ["app_account_token": token])
            #expect(registered.status == 200, "\(registered.bodyText)")
            #expect(registered.object["notifications_processed"] as? Int == 1)
            let customer = service.respond("GET", "/v1/customers/bea")
            #expect(customer.status == 200)
            #expect((customer.object["balances"] as? JSON)?["pellet"] as? Int == 5, "granted once: \(customer.bodyText)")
        }
    }

    @Test("a customer registered with Swift's upper-case UUID receives the notification signed in lower case at once")
    func upperCaseTokensReceiveTheirPurchases() throws {
        try RouterTestService.test { service in
            let token = UUID().uuidString
            let registered = try service.respond("PUT", "/v1/customers/eli", json: ["app_account_token": token])
            #expect(registered.status == 200)
            #expect(registered.object["app_account_token"] as? String == token.lowercased())
            let notification = try service.sign(Payloads.notification(
                type: .oneTimeCharge, signedTransaction: try service.sign(Payloads.consumable(id: "7250", appAccountToken: token.lowercased()))))
            let posted = try service.respond("POST", "/v1/notifications", json: ["signedPayload": notification], key: nil)
            #expect(posted.status == 200)
            #expect(posted.object["status"] as? String == "processed", "\(posted.bodyText)")
            #expect((service.respond("GET", "/v1/customers/eli").object["balances"] as? JSON)?["pellet"] as? Int == 5)
        }
    }

    @Test("a notification contradicting a stored transaction is answered 200, kept as a conflict, counted and named by the ledger's check")
    func conflictingNotificationsAreKept() throws {
        try RouterTestService.test { service in
            let bought = try service.sign(Payloads.consumable(id: "7400"))
            #expect(try service.respond("POST", "/v1/transactions", json: ["customer": "dee", "signed_transaction": bought]).status == 200)
            let contradicting = try service.sign(Payloads.consumable(id: "7400", productID: "pellet.bag"))
            let notification = try service.sign(Payloads.notification(type: .oneTimeCharge, signedTransaction: contradicting))
            let posted = try service.respond("POST", "/v1/notifications", json: ["signedPayload": notification], key: nil)
            #expect(posted.status == 200, "\(posted.bodyText)")
            #expect(posted.object["status"] as? String == "conflict")
            let again = try service.respond("POST", "/v1/notifications", json: ["signedPayload": notification], key: nil)
            #expect(again.object["status"] as? String == "already_processed")
            let metrics = service.respond("GET", "/metrics", key: RouterTestService.adminKey).bodyText
            #expect(metrics.contains(#"storerules_ingests_total{kind="notification",outcome="conflict"} 1"#), "\(metrics)")
            let violations = try service.router.service.ledger.checkInvariants()
            #expect(violations.contains { $0.contains("is kept as a conflict: transaction 7400") }, "\(violations)")
        }
    }

    @Test("a product the catalog does not list is stored unfinished, with the reason, and answered 200")
    func productsTheCatalogLacksAreKeptUnfinished() throws {
        try RouterTestService.test { service in
            _ = try service.respond("PUT", "/v1/customers/cy", json: [String: Any]())
            let unknown = try service.sign(Payloads.consumable(id: "7300", productID: "seed.bag.new"))
            let notification = try service.sign(Payloads.notification(type: .oneTimeCharge, signedTransaction: unknown))
            let first = try service.respond("POST", "/v1/transactions", json: ["customer": "cy", "signed_transaction": unknown])
            #expect(first.status == 200, "\(first.bodyText)")
            #expect(first.object["outcome"] as? String == "unfinished")
            #expect((first.object["reason"] as? String)?.isEmpty == false)
            let posted = try service.respond("POST", "/v1/notifications", json: ["signedPayload": notification], key: nil)
            #expect(posted.status == 200)
            let customer = service.respond("GET", "/v1/customers/cy")
            #expect(customer.object["unfinished_transactions"] as? [String] == ["7300"])
        }
    }
}
