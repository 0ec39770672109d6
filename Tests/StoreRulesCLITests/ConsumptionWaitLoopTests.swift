import Foundation
import Testing
import TestPrerequisites

/// The refund loop for a purchase `storerules serve` could not grant yet: its notification is
/// kept because no customer registered its app account token. The refund request waits — nothing
/// is told Apple, `ledger consumption` says why — and registering the customer grants the
/// purchase and has it answered at once as delivered, on SQLite and on PostgreSQL.
@Suite struct ConsumptionWaitLoopTests {
    @Test("on SQLite, a refund request for a purchase kept pending waits and is answered once its customer registers")
    func waitOnSQLite() throws {
        try waitForGrant(backend: .sqlite)
    }

    @Test("on PostgreSQL, a refund request for a purchase kept pending waits and is answered once its customer registers",
          .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil), "set STORERULES_TEST_POSTGRES_URL to a PostgreSQL server"))
    func waitOnPostgreSQL() throws {
        try waitForGrant(backend: .postgres)
    }

    func waitForGrant(backend: LedgerReconcileTests.Backend) throws {
        let (store, ledger, service) = try ConsumptionLoopTests.serviceBesideStoreAPI(backend)
        defer { _ = service.terminate() }
        let token = UUID().uuidString.lowercased()
        try store.store(["settings", "--notification-url", "\(service.baseURL.absoluteString)/v1/notifications"])
        let bought = try store.storeJSON(["purchase", "pellet.box", "--customer", "ana", "--app-account-token", token])
        let transactionID = try #require((bought["transaction"] as? [String: Any])?["transactionId"] as? String)
        try store.store(["refund-request", transactionID, "--reason", "UNSATISFIED_WITH_PURCHASE"])

        func kept() throws -> [String: Any]? {
            let listed = try CommandRunner.run(["ledger", "consumption", "--ledger", ledger, "--json"])
            return (try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]])?.first
        }
        var waiting: [String: Any]?
        for _ in 0..<100 where !((waiting?["last_error"] as? String)?.contains("waiting") ?? false) {
            Thread.sleep(forTimeInterval: 0.1)
            waiting = try kept()
        }
        let note = try #require(waiting?["last_error"] as? String, "\(String(describing: waiting))\n\(service.standardError)")
        #expect(note.contains("waiting for the ledger to grant transaction \(transactionID)"), "\(note)")
        #expect(note.contains("its notification is kept until a customer registers its app account token"), "\(note)")
        #expect(waiting?["state"] as? String == "pending")
        #expect(waiting?["transaction_granted"] as? Bool == false)
        let sent = try store.storeJSON(["consumption", transactionID])["consumption"] as? [[String: Any]] ?? []
        #expect(sent.isEmpty, "nothing is told Apple about a purchase no one received yet")
        #expect(service.standardError.contains("(transaction \(transactionID)): waiting for the ledger to grant"), "\(service.standardError)")

        #expect(try service.request("PUT", "/v1/customers/ana", json: ["app_account_token": token]).status < 300)
        var received: [[String: Any]] = []
        for _ in 0..<100 where received.isEmpty {
            Thread.sleep(forTimeInterval: 0.1)
            received = try store.storeJSON(["consumption", transactionID])["consumption"] as? [[String: Any]] ?? []
        }
        let answer = try #require(received.first?["body"] as? [String: Any], "the grant woke the responder: \(service.standardError)")
        #expect(answer["deliveryStatus"] as? String == "DELIVERED")
        #expect(answer["consumptionPercentage"] as? Int == 0, "five pellets granted, none fed")
        #expect(answer["refundPreference"] as? String == "GRANT_FULL")
        var answered: [String: Any]?
        for _ in 0..<50 where answered?["state"] as? String != "answered" {
            answered = try kept()
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(answered?["state"] as? String == "answered", "\(String(describing: answered))")
        #expect(answered?["transaction_granted"] as? Bool == true)
        #expect(answered?["transaction_granted_at"] is String)
    }
}
