import Foundation
import Testing
import TestPrerequisites

/// Three `storerules serve` instances on one PostgreSQL ledger, each given `--events-url`: every
/// event reaches a receiver built on the Standard Webhooks reference library once, each customer's
/// in order, whichever instance wrote it and whichever sent it.
@Suite(.serialized, .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil && WebhookReceiverProcess.runs),
                             "needs STORERULES_TEST_POSTGRES_URL and scripts/contract/setup.sh's .venv-contract"))
struct ServeFleetEventsTests {
    @Test("three instances deliver each event once, each customer's in order")
    func fleetDeliversEachEventOnce() throws {
        let directory = try TestFolders.make("fleet-events")
        defer { try? FileManager.default.removeItem(at: directory) }
        let secretPath = directory.appending(path: "events.secret").path
        #expect(try CommandRunner.run(["events", "secret", secretPath]).status == 0)
        let port = try WebhookReceiverProcess.freePort()
        let receiver = try WebhookReceiverProcess(secretPath: secretPath, port: port)
        let ledger = try LedgerWorkspace.freshPostgresLedger()
        let events = ["--events-url", "http://127.0.0.1:\(port)/hooks", "--events-secret", secretPath]
        let instances = try (0..<3).map { _ in try ServeProcess(ledger: ledger, extra: events) }
        for customer in ServeFleetTests.customers {
            let registered = try instances[0].request("PUT", "/v1/customers/\(customer.id)", json: ["app_account_token": customer.token])
            #expect(registered.status == 200, "\(registered.text)")
        }
        // Each notification to the next instance in turn, one after another, as Apple sends a
        // customer's in order.
        for (index, notification) in try ServeFleetTests.notifications().enumerated() {
            let reply = try instances[index % 3].request("POST", "/v1/notifications", body: Data(notification.body.utf8), key: nil)
            #expect(reply.status == 200, "\(reply.text)")
        }

        var written: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(60)
        repeat {
            Thread.sleep(forTimeInterval: 0.2)
            let listed = try CommandRunner.run(["events", "list", "--ledger", ledger, "--limit", "100000", "--json"])
            written = listed.standardOutput.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        } while Date() < deadline && (written.contains { $0["state"] as? String != "delivered" } || receiver.received.count < written.count)
        let received = receiver.received
        #expect(!written.isEmpty && written.allSatisfy { $0["state"] as? String == "delivered" })
        #expect(received.allSatisfy { $0["refused"] == nil }, "every delivery verifies: \(received.filter { $0["refused"] != nil })")
        #expect(received.count == written.count, "each event once: \(received.count) deliveries of \(written.count) events")
        #expect(Set(received.compactMap { $0["id"] as? String }) == Set(written.compactMap { $0["id"] as? String }))
        for customer in ServeFleetTests.customers {
            let sequences = received.filter { $0["customer"] as? String == customer.id }.compactMap { $0["sequence"] as? Int }
            #expect(!sequences.isEmpty && sequences == Array(1...sequences.count), "\(customer.id)'s events in order: \(sequences)")
        }
    }
}
