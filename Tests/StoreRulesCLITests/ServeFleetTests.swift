import Foundation
import StoreCore
import Synchronization
import Testing
import TestPrerequisites

/// Several `storerules serve` instances on one PostgreSQL ledger behave as one: the same
/// notification posted to all of them at once grants once, an instance killed mid-load loses
/// nothing it answered `200`, and the ledger ends as `storerules ledger ingest` of the same
/// payloads leaves one.
@Suite(.serialized, .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil), "needs STORERULES_TEST_POSTGRES_URL"))
struct ServeFleetTests {
    /// A customer of the stream, and the app account token their purchases carry.
    struct Customer {
        let id: String
        let token: String
    }

    static let customers = (0..<6).map { Customer(id: "fleet-\($0)", token: UUID().uuidString) }

    /// For each customer: two boxes of pellets, a pass bought and renewed twice, and the first
    /// box refunded — each as the notification Apple would post.
    static func notifications() throws -> [(customer: String, body: String)] {
        var bodies: [(String, String)] = []
        for (index, customer) in customers.enumerated() {
            func signedTransaction(_ payload: JWSTransactionDecodedPayload) throws -> String {
                var payload = payload
                payload.appAccountToken = customer.token
                return try SignedFixtures.sign(payload)
            }
            func post(_ type: NotificationTypeV2, _ transaction: String) throws {
                let signed = try SignedFixtures.sign(SignedFixtures.notification(type: type, signedTransaction: transaction))
                bodies.append((customer.id, #"{"signedPayload":"\#(signed)"}"#))
            }
            let first = "fleet-box-\(index)-1"
            try post(.oneTimeCharge, try signedTransaction(SignedFixtures.consumable(id: first, quantity: 2)))
            try post(.oneTimeCharge, try signedTransaction(SignedFixtures.consumable(id: "fleet-box-\(index)-2", quantity: 1)))
            for period in 0..<3 {
                try post(period == 0 ? .subscribed : .didRenew,
                         try signedTransaction(SignedFixtures.pass(original: "fleet-pass-\(index)", period: period, of: 3)))
            }
            try post(.refund, try signedTransaction(SignedFixtures.consumable(
                id: first, quantity: 2, revokedAt: SignedFixtures.now, signedAt: SignedFixtures.now.addingTimeInterval(1))))
        }
        return bodies
    }

    /// Three instances on one new PostgreSQL ledger, the stream's customers registered.
    private static func fleet() throws -> (ledger: String, instances: [ServeProcess]) {
        let ledger = try LedgerWorkspace.freshPostgresLedger()
        let instances = try (0..<3).map { _ in try ServeProcess(ledger: ledger) }
        for customer in customers {
            let registered = try instances[0].request("PUT", "/v1/customers/\(customer.id)", json: ["app_account_token": customer.token])
            #expect(registered.status == 200, "\(registered.text)")
        }
        return (ledger, instances)
    }

    /// The ledger `storerules ledger ingest` leaves from the same notifications, one customer at a time.
    private static func referenceLedger(_ bodies: [(customer: String, body: String)]) throws -> String {
        let workspace = try LedgerWorkspace()
        let ledger = workspace.sqliteLedger()
        for customer in customers {
            let lines = bodies.filter { $0.customer == customer.id }.map(\.body)
            let result = try workspace.ingest(try workspace.file(lines), ledger: ledger, customer: customer.id)
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        }
        return ledger
    }

    /// `ledger customer ID --json` without the policy version, which differs by nothing here.
    private static func customerState(_ id: String, ledger: String) throws -> String {
        let result = try LedgerWorkspace.ledger("customer", id, "--ledger", ledger, "--json")
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput
    }

    @Test("every notification posted to all three instances at once, shuffled, grants once and leaves what ledger ingest leaves")
    func duplicatesAcrossTheFleetGrantOnce() throws {
        let bodies = try Self.notifications()
        let (ledger, instances) = try Self.fleet()
        var generator = SystemRandomNumberGenerator()
        let order = Array(bodies.indices).shuffled(using: &generator)
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for (index, instance) in instances.enumerated() {
            group.enter()
            Thread {
                defer { group.leave() }
                for position in (index == 1 ? order.reversed() : order) {
                    do {
                        let reply = try instance.request("POST", "/v1/notifications", body: Data(bodies[position].body.utf8), key: nil)
                        if reply.status != 200 { failures.withLock { $0.append("\(reply.status) \(reply.text)") } }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 300) == .success)
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        let check = try LedgerWorkspace.ledger("check", "--ledger", ledger)
        #expect(check.status == 0, "\(check.standardOutput)")
        let reference = try Self.referenceLedger(bodies)
        for customer in Self.customers {
            #expect(try Self.customerState(customer.id, ledger: ledger) == Self.customerState(customer.id, ledger: reference),
                    "\(customer.id)")
        }
        #expect(try LedgerWorkspace.balances(of: Self.customers[0].id, ledger: ledger) == ["pellet": 5])
    }

    @Test("an instance killed mid-load loses nothing it answered 200, and what it did not answer grants once elsewhere")
    func anInstanceKilledMidLoadLosesNothing() throws {
        let bodies = try Self.notifications()
        let (ledger, instances) = try Self.fleet()
        let answered = Mutex<Set<Int>>([])
        let aThirdAnswered = DispatchSemaphore(value: 0)
        let senderStopped = DispatchSemaphore(value: 0)
        let sender = Thread {
            defer { senderStopped.signal() }
            for (index, body) in bodies.enumerated() {
                guard let reply = try? instances[1].request("POST", "/v1/notifications", body: Data(body.body.utf8), key: nil) else { return }
                guard reply.status == 200 else { continue }
                if answered.withLock({ $0.insert(index); return $0.count }) == bodies.count / 3 { aThirdAnswered.signal() }
            }
        }
        sender.start()
        try #require(aThirdAnswered.wait(timeout: .now() + 120) == .success,
                     "a third of the notifications answered 200 within two minutes: \(answered.withLock { $0.count }) of \(bodies.count)")
        instances[1].send(signal: SIGKILL)
        try #require(senderStopped.wait(timeout: .now() + 120) == .success, "the sender's next request fails once its instance is killed")
        // Apple delivers again everything it did not see answered 200, to whichever instance.
        let unanswered = bodies.indices.filter { !answered.withLock { $0 }.contains($0) }
        #expect(!unanswered.isEmpty)
        for index in unanswered {
            let reply = try instances[2].request("POST", "/v1/notifications", body: Data(bodies[index].body.utf8), key: nil)
            #expect(reply.status == 200, "\(reply.text)")
        }
        let check = try LedgerWorkspace.ledger("check", "--ledger", ledger)
        #expect(check.status == 0, "\(check.standardOutput)")
        let reference = try Self.referenceLedger(bodies)
        for customer in Self.customers {
            #expect(try Self.customerState(customer.id, ledger: ledger) == Self.customerState(customer.id, ledger: reference),
                    "\(customer.id)")
        }
    }

    @Test("a month of the local store's signed data, posted as the app and Apple post it to three instances, leaves what ledger ingest leaves")
    func aLocalStoreMonthAcrossTheFleet() throws {
        let month = try ScriptedMonth.played.get()
        let payloads = try month.payloads().filter { $0.kind != .renewal }
        #expect(payloads.contains { $0.kind == .notification })
        let ledger = try LedgerWorkspace.freshPostgresLedger()
        let instances = try (0..<3).map { _ in try ServeProcess(ledger: ledger, rootPEM: month.rootCertificate) }
        var generator = SystemRandomNumberGenerator()
        // The app delivers its transactions first, in any order; then Apple's notifications
        // arrive shuffled, each at an instance chosen at random.
        let transactions = payloads.filter { $0.kind == .transaction }.shuffled(using: &generator)
        let notifications = payloads.filter { $0.kind == .notification }.shuffled(using: &generator)
        for payload in transactions {
            let reply = try instances.randomElement(using: &generator)!.request(
                "POST", "/v1/transactions", json: ["customer": ScriptedMonth.customer, "signed_transaction": payload.jws])
            #expect(reply.status == 200, "\(reply.text)")
        }
        for payload in notifications {
            let reply = try instances.randomElement(using: &generator)!.request(
                "POST", "/v1/notifications", json: ["signedPayload": payload.jws], key: nil)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.json["status"] as? String != "pending", "\(reply.text)")
        }

        let workspace = try LedgerWorkspace()
        let root = workspace.directory.appendingPathComponent("month-root.pem").path
        try month.rootCertificate.write(toFile: root, atomically: true, encoding: .utf8)
        let reference = workspace.sqliteLedger("reference.sqlite")
        let ingested = try CommandRunner.run([
            "ledger", "ingest", LedgerWorkspace.folder, "--ledger", reference, "--root", root, "--bundle-id", ScriptedMonth.bundleID,
            "--environment", ScriptedMonth.environment, "--customer", ScriptedMonth.customer,
            try workspace.file(payloads.map(\.jws)),
        ])
        #expect(ingested.status == 0, "\(ingested.standardOutput)\(ingested.standardError)")
        let served = try Self.customerState(ScriptedMonth.customer, ledger: ledger)
        let expected = try Self.customerState(ScriptedMonth.customer, ledger: reference)
        #expect(served == expected, "served \(served)\ningested \(expected)")
        let check = try LedgerWorkspace.ledger("check", "--ledger", ledger)
        #expect(check.status == 0, "\(check.standardOutput)")
    }
}
