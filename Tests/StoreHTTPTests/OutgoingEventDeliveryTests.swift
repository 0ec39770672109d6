import Foundation
import PostgresLedger
import ServiceCommandLine
import SQLiteLedger
import StoreCore
import StoreService
import Synchronization
import Testing
import TestPrerequisites

/// Outgoing events delivered to a real HTTP receiver: signed as Standard Webhooks says, every one
/// at least once with one id, each customer's in order, through failures, and by one instance at
/// a time when several share a ledger.
@Suite struct OutgoingEventDeliveryTests {
    static let secret = WebhookSecret.generate()

    /// Retries at once, so a test's receiver failures cost milliseconds.
    static var quickOptions: OutgoingEventDelivery.Options {
        var options = OutgoingEventDelivery.Options()
        options.backoff = Backoff(maximumAttempts: .max, initialDelay: .milliseconds(5), maximumDelay: .milliseconds(20))
        options.batchSize = 16
        return options
    }

    /// A ledger recording events, of `backend`.
    static func ledger(_ backend: String) throws -> Ledger {
        try location(backend).open().recordingOutgoingEvents(OutgoingEventRecording())
    }

    /// A new ledger location of `backend`.
    static func location(_ backend: String) throws -> LedgerLocation {
        let folder = try TestFolders.make("events")
        return try DecisionOutsideWriteHTTPTests.ledger(backend, in: folder)
    }

    /// `count` purchases of a box of pellets by each of `customers`.
    static func purchase(_ count: Int, by customers: [String], into ledger: Ledger) throws {
        for customer in customers {
            for index in 0..<count {
                let payload = JWSTransactionDecodedPayload(
                    originalTransactionId: "\(customer)-\(index)", transactionId: "\(customer)-\(index)", bundleId: "com.example",
                    productId: "pellet.box", purchaseDate: Date(), originalPurchaseDate: Date(), quantity: 1, type: .consumable,
                    inAppOwnershipType: .purchased, signedDate: Date(), environment: .sandbox)
                let jws = "e30." + Data((try JSONEncoder().encode(payload))).base64EncodedString() + "."
                _ = try ledger.ingest(transaction: payload, jwsRepresentation: jws, customerID: customer) { _ in
                    [Grant(item: "pellet", amount: 5)]
                }
            }
        }
    }

    /// A month's subscription bought by `customer`, its renewal turned off, then refunded.
    static func subscribeAndRefund(_ customer: String, into ledger: Ledger) throws {
        let bought = Date(millisecondsSince1970: Date().millisecondsSince1970)
        func subscription(revoked: Bool) -> JWSTransactionDecodedPayload {
            JWSTransactionDecodedPayload(
                originalTransactionId: "\(customer)-pass", transactionId: "\(customer)-pass", bundleId: "com.example",
                productId: "pass.monthly", subscriptionGroupIdentifier: "G1", purchaseDate: bought, originalPurchaseDate: bought,
                expiresDate: bought.addingTimeInterval(30 * 86_400), quantity: 1, type: .autoRenewableSubscription,
                inAppOwnershipType: .purchased, signedDate: bought.addingTimeInterval(revoked ? 2 : 0),
                revocationReason: revoked ? .refundedForOtherReason : nil, revocationDate: revoked ? bought : nil, environment: .sandbox)
        }
        func jws(_ payload: some Encodable) throws -> String {
            "e30." + Data((try JSONEncoder().encode(payload))).base64EncodedString() + "."
        }
        _ = try ledger.ingest(transaction: subscription(revoked: false), jwsRepresentation: try jws(subscription(revoked: false)),
                              customerID: customer) { _ in [Grant(item: "feeder", amount: 1)] }
        let off = JWSRenewalInfoDecodedPayload(
            originalTransactionId: "\(customer)-pass", autoRenewProductId: "pass.monthly", productId: "pass.monthly",
            autoRenewStatus: .off, signedDate: bought.addingTimeInterval(1), environment: .sandbox)
        _ = try ledger.ingest(renewalInfo: off, jwsRepresentation: try jws(off))
        _ = try ledger.ingest(transaction: subscription(revoked: true), jwsRepresentation: try jws(subscription(revoked: true)),
                              customerID: customer) { _ in [] }
    }

    /// Runs rounds until the outbox has nothing pending, or throws after `limit`, on a thread of
    /// their own (``DedicatedThreadExecutor``).
    static func drain(_ delivery: OutgoingEventDelivery, ledger: Ledger, within limit: Duration = .seconds(120)) async throws {
        try await withTaskExecutorPreference(DedicatedThreadExecutor.shared) {
            let deadline = ContinuousClock.now + limit
            while try ledger.outgoingEventBacklog(at: Date().millisecondsSince1970).pending > 0 {
                guard ContinuousClock.now < deadline else { throw DrainTimeout() }
                if try await delivery.deliverDueEvents() == 0 { try await Task.sleep(for: .milliseconds(5)) }
            }
        }
    }

    struct DrainTimeout: Error {}

    /// Checks what a receiver got: every event of the outbox accepted (once each when
    /// `exactlyOnce`; an attempt that timed out may have been taken too), duplicates only with
    /// the same id and body, each customer's events first taken in sequence order, every
    /// signature good.
    static func expectDelivered(_ receiver: WebhookReceiver, ledger: Ledger, exactlyOnce: Bool) throws {
        let events = try ledger.outgoingEvents(OutgoingEventQuery(limit: 10_000))
        #expect(events.allSatisfy { $0.state == .delivered })
        let accepted = receiver.accepted
        #expect(Set(accepted.map(\.id)) == Set(events.map(\.id)), "every event arrives")
        if exactlyOnce { #expect(accepted.count == events.count, "accepted once each") }
        let bodies = Dictionary(events.map { ($0.id, $0.body) }, uniquingKeysWith: { first, _ in first })
        for delivery in receiver.deliveries {
            #expect(bodies[delivery.id] == delivery.body, "a retry sends the same body under the same id")
            #expect(delivery.signature == secret.signature(id: delivery.id, timestamp: Int64(delivery.timestamp) ?? -1, body: delivery.body))
        }
        let byID = Dictionary(events.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var lastSequence: [String: Int64] = [:]
        var taken = Set<String>()
        for delivery in accepted where taken.insert(delivery.id).inserted {
            guard let event = byID[delivery.id] else { continue }
            #expect(event.sequence == (lastSequence[event.customerID] ?? 0) + 1, "\(event.customerID)'s events arrive in order")
            lastSequence[event.customerID] = event.sequence
        }
    }

    @Test("a receiver that fails, times out and answers slowly gets every event after it recovers, each customer's in order",
          arguments: DecisionOutsideWriteHTTPTests.backends)
    func recoversFromFailures(on backend: String) async throws {
        let ledger = try Self.ledger(backend)
        try Self.purchase(3, by: ["ana", "bo", "cy"], into: ledger)
        let receiver = try WebhookReceiver { attempt in
            switch attempt {
            case 0..<4: .status(500)
            case 4: .slow(seconds: 1.5)
            case 5: .status(429)
            case 6: .redirect
            case 7: .slow(seconds: 0.2)
            default: .accept
            }
        }
        defer { receiver.stop() }
        let delivery = OutgoingEventDelivery(
            ledger: ledger, sink: WebhookSender(url: receiver.url, secret: Self.secret, timeout: 1), options: Self.quickOptions)
        try await Self.drain(delivery, ledger: ledger)
        try Self.expectDelivered(receiver, ledger: ledger, exactlyOnce: false)
        #expect(receiver.deliveries.count > receiver.accepted.count, "the failed attempts were made")
        #expect(!receiver.deliveries.contains { $0.id.isEmpty }, "the redirect was not followed")
    }

    @Test("Standard Webhooks' reference library verifies every delivery, and refuses a changed body, another secret or an old timestamp",
          .enabled(if: StandardWebhooksJudge.runs))
    func referenceLibraryVerifies() async throws {
        // The judge runs at once after the rounds, on their thread: the reference library refuses a
        // timestamp over five minutes old, and a busy cooperative pool could delay it that long.
        try await withTaskExecutorPreference(DedicatedThreadExecutor.shared) {
            let ledger = try Self.ledger("sqlite")
            try Self.purchase(2, by: ["ana", "bo"], into: ledger)
            try Self.subscribeAndRefund("cy", into: ledger)
            let receiver = try WebhookReceiver { attempt in attempt == 0 ? .status(500) : .accept }
            defer { receiver.stop() }
            let delivery = OutgoingEventDelivery(
                ledger: ledger, sink: WebhookSender(url: receiver.url, secret: Self.secret), options: Self.quickOptions)
            try await Self.drain(delivery, ledger: ledger)
            let deliveries = receiver.deliveries
            let verdict = try StandardWebhooksJudge.judge(deliveries, secret: Self.secret)
            #expect(verdict.problems == [])
            let types = Set(try ledger.outgoingEvents(OutgoingEventQuery()).map(\.type))
            #expect(types == [.purchaseGranted, .subscriptionStarted, .entitlementsChanged, .subscriptionRenewalDisabled,
                              .transactionRefunded])
            #expect(verdict.verified == deliveries.count && deliveries.count > types.count)
            #expect(verdict.refused == 3 * deliveries.count)
            #expect(verdict.conforming == deliveries.count, "every body is what the contract's webhooks say")
        }
    }

    @Test("three instances on one PostgreSQL ledger deliver each event once when none fails")
    func threeInstances() async throws {
        guard DecisionOutsideWriteHTTPTests.backends.contains("postgres") else { return }
        let location = try Self.location("postgres")
        let first = try location.open().recordingOutgoingEvents(OutgoingEventRecording())
        try Self.purchase(4, by: (0..<10).map { "customer-\($0)" }, into: first)
        // Each instance with its own connections, as three processes have.
        let others = try (0..<2).map { _ in try location.open() }
        let receiver = try WebhookReceiver { _ in .accept }
        defer { receiver.stop() }
        let deliveries = ([first] + others).map {
            OutgoingEventDelivery(ledger: $0, sink: WebhookSender(url: receiver.url, secret: Self.secret), options: Self.quickOptions)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for delivery in deliveries {
                group.addTask { try await Self.drain(delivery, ledger: first) }
            }
            try await group.waitForAll()
        }
        try Self.expectDelivered(receiver, ledger: first, exactlyOnce: true)
        #expect(receiver.deliveries.count == 40, "no event sent twice")
    }

    @Test("stopping lets the round under way end: an event the receiver was answering is recorded delivered and not sent again")
    func stopEndsTheRoundUnderWay() async throws {
        let ledger = try Self.ledger("sqlite")
        try Self.purchase(1, by: ["ana"], into: ledger)
        let receiver = try WebhookReceiver { _ in .slow(seconds: 1) }
        defer { receiver.stop() }
        let delivery = OutgoingEventDelivery(
            ledger: ledger, sink: WebhookSender(url: receiver.url, secret: Self.secret), options: Self.quickOptions)
        try await withTaskExecutorPreference(DedicatedThreadExecutor.shared) {
            delivery.start(on: DedicatedThreadExecutor.shared)
            let deadline = ContinuousClock.now + .seconds(60)
            while try ledger.outgoingEvents(OutgoingEventQuery()).allSatisfy({ $0.leaseUntil == 0 }) {
                guard ContinuousClock.now < deadline else { throw DrainTimeout() }
                try await Task.sleep(for: .milliseconds(5))
            }
            try await Task.sleep(for: .milliseconds(200))
            await delivery.stop()
        }
        let events = try ledger.outgoingEvents(OutgoingEventQuery())
        #expect(!events.isEmpty && events.allSatisfy { $0.state == .delivered }, "\(events.map(\.state))")
        #expect(receiver.accepted.count == events.count)
    }

    @Test("410 Gone keeps the event as failed and lets the customer's next go; other types than those asked for are skipped")
    func goneAndSkipped() async throws {
        let ledger = try Self.ledger("sqlite")
        try Self.purchase(2, by: ["ana"], into: ledger)
        let receiver = try WebhookReceiver { attempt in attempt == 0 ? .status(410) : .accept }
        defer { receiver.stop() }
        let delivery = OutgoingEventDelivery(
            ledger: ledger, sink: WebhookSender(url: receiver.url, secret: Self.secret), options: Self.quickOptions)
        try await Self.drain(delivery, ledger: ledger)
        let events = try ledger.outgoingEvents(OutgoingEventQuery()).sorted { $0.sequence < $1.sequence }
        #expect(events.map(\.state) == [.failed, .delivered])
        #expect(events[0].lastError?.contains("410") == true)

        try Self.purchase(1, by: ["bo"], into: ledger)
        var options = Self.quickOptions
        options.types = [.entitlementsChanged]
        let filtered = OutgoingEventDelivery(
            ledger: ledger, sink: WebhookSender(url: receiver.url, secret: Self.secret), options: options)
        try await Self.drain(filtered, ledger: ledger)
        #expect(try ledger.outgoingEvents(OutgoingEventQuery(customerID: "bo")).map(\.state) == [.skipped])
        #expect(receiver.deliveries.count == 2)
    }

    @Test("an event of a type a newer version wrote is delivered as written, and skipped by a delivery that takes named types only")
    func typeFromANewerVersion() async throws {
        let location = try Self.location("sqlite")
        guard case .sqlite(let path) = location else { return }
        let ledger = try location.open().recordingOutgoingEvents(OutgoingEventRecording())
        try Self.purchase(1, by: ["ana", "bo"], into: ledger)
        try Database(path: path).write { try $0.execute("UPDATE outgoing_event SET event_type = 'subscription.paused'") }
        let receiver = try WebhookReceiver { _ in .accept }
        defer { receiver.stop() }
        var options = Self.quickOptions
        options.types = [.purchaseGranted]
        let filtered = OutgoingEventDelivery(ledger: ledger, sink: WebhookSender(url: receiver.url, secret: Self.secret), options: options)
        try await Self.drain(filtered, ledger: ledger)
        #expect(try ledger.outgoingEvents(OutgoingEventQuery()).map(\.state) == [.skipped, .skipped])
        #expect(try ledger.requeueOutgoingEvents(OutgoingEventQuery(customerID: "bo"), at: Date().millisecondsSince1970) == 1)
        let all = OutgoingEventDelivery(ledger: ledger, sink: WebhookSender(url: receiver.url, secret: Self.secret), options: Self.quickOptions)
        try await Self.drain(all, ledger: ledger)
        let delivered = try ledger.outgoingEvents(OutgoingEventQuery(customerID: "bo"))
        #expect(delivered.map(\.state) == [.delivered] && delivered.map(\.typeName) == ["subscription.paused"])
        #expect(delivered.first?.type == nil)
        #expect(receiver.accepted.map(\.id) == delivered.map(\.id))
    }

    @Test("an event failing past its time is given up, and an operator's retry sends it again with its id")
    func givenUpThenRetried() async throws {
        let ledger = try Self.ledger("sqlite")
        try Self.purchase(1, by: ["ana"], into: ledger)
        let failing = Mutex(true)
        let receiver = try WebhookReceiver { _ in failing.withLock { $0 } ? .status(503) : .accept }
        defer { receiver.stop() }
        var options = Self.quickOptions
        options.giveUpAfter = .seconds(2)
        let delivery = OutgoingEventDelivery(
            ledger: ledger, sink: WebhookSender(url: receiver.url, secret: Self.secret), options: options)
        try await Self.drain(delivery, ledger: ledger)
        let failed = try ledger.outgoingEvents(OutgoingEventQuery(state: .failed))
        #expect(failed.count == 1 && failed[0].attempts >= 1)
        #expect(failed[0].lastError?.contains("given up") == true)
        failing.withLock { $0 = false }
        #expect(try ledger.requeueOutgoingEvents(OutgoingEventQuery(state: .failed), at: Date().millisecondsSince1970) == 1)
        try await Self.drain(delivery, ledger: ledger)
        #expect(receiver.accepted.map(\.id) == [failed[0].id])
        let retried = try ledger.outgoingEvents(OutgoingEventQuery(ids: [failed[0].id]))
        #expect(retried.map(\.attempts) == [1], "attempts are counted again from the operator's retry")
    }

    @Test("an embedder's callback gets the same events from the same outbox, and a throwing callback is called again")
    func callbackSink() async throws {
        let ledger = try Self.ledger("sqlite")
        try Self.purchase(2, by: ["ana"], into: ledger)
        let seen = Mutex<[String]>([])
        let sink = OutgoingEventCallback { event in
            let first = seen.withLock { seen in
                defer { seen.append(event.id) }
                return seen.isEmpty
            }
            if first { throw CancellationError() }
        }
        try await Self.drain(OutgoingEventDelivery(ledger: ledger, sink: sink, options: Self.quickOptions), ledger: ledger)
        let events = try ledger.outgoingEvents(OutgoingEventQuery()).sorted { $0.sequence < $1.sequence }
        #expect(seen.withLock { $0 } == [events[0].id, events[0].id, events[1].id])
    }

    @Test("a secret is read as Standard Webhooks writes it, never shown, and signs as its reference vector says")
    func secretAndSignature() throws {
        let secret = try WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\n")
        #expect(secret.signature(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: #"{"test": 2432232314}"#)
                == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        #expect(!secret.description.contains("MfKQ9r8"))
        #expect(throws: WebhookSecretError.missingPrefix) { try WebhookSecret("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") }
        #expect(throws: WebhookSecretError.notBase64) { try WebhookSecret("whsec_not base64!") }
        #expect(throws: WebhookSecretError.keyLength(3)) { try WebhookSecret("whsec_AAAA") }
        let made = WebhookSecret.generate()
        #expect(try WebhookSecret(made.text).text == made.text)
    }
}
