import Foundation
import PostgresLedger
import ServiceCommandLine
import SQLiteLedger
import StoreCore
import StoreHTTP
import StoreService

/// What outgoing events cost and how fast they go out: notification ingests into a ledger that
/// records events against the same ingests into one that does not, in alternating rounds on
/// SQLite (and PostgreSQL when a server is given); then the events of the last round delivered to
/// a receiver on loopback (``StoreHTTP``'s server answering `204`), signed, through
/// ``OutgoingEventDelivery`` with the options `serve` uses.
public enum OutgoingEventBench {
    /// Each customer of a round (``BenchScale/eventCustomers``) buys a monthly subscription and
    /// renews it until it has this many periods.
    public static let renewals = 12
    /// The goals: ingests with events at least this share of those without, and events delivered a second.
    public static let ingestRatioGoal = 0.9
    public static let deliveryGoal = 1_000.0

    /// The figures, or why they are missing.
    public static func measure(postgresURL: String?, scale: BenchScale = .full) async -> OutgoingEventBenchSection {
        var section = OutgoingEventBenchSection()
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("storerules-events-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: workspace) }
        do {
            let customers = scale.eventCustomers
            let (sqlite, recorded) = try ingestFigures(backend: "sqlite", customers: customers) { try sqliteLocation(in: workspace) }
            section.ingests.append(sqlite)
            if let postgresURL {
                var servers: [BenchPostgresDatabase] = []
                defer { for server in servers { try? server.drop() } }
                let (postgres, _) = try ingestFigures(backend: "postgres", customers: customers) {
                    let server = try BenchPostgresDatabase(serverURL: postgresURL)
                    servers.append(server)
                    return .postgres(url: server.url)
                }
                section.ingests.append(postgres)
            }
            section.delivery = try await deliveryFigures(recorded)
        } catch {
            section.failed = "\(error)"
        }
        return section
    }

    /// A new SQLite ledger's location in a new folder of `workspace`, which the run removes.
    private static func sqliteLocation(in workspace: URL) throws -> LedgerLocation {
        let directory = workspace.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return .sqlite(path: directory.appendingPathComponent("ledger.sqlite").path)
    }

    /// The best rate of each kind over the rounds, and the last ledger that recorded events.
    private static func ingestFigures(backend: String, customers: Int,
                                      location: () throws -> LedgerLocation) throws -> (OutgoingEventIngestFigures, Ledger) {
        var without = 0.0, with = 0.0
        var recorded: Ledger?
        for _ in 0..<BenchRounds.count {
            without = max(without, try ingestRate(into: try location().open(), customers: customers))
            let ledger = try location().open().recordingOutgoingEvents(OutgoingEventRecording())
            with = max(with, try ingestRate(into: ledger, customers: customers))
            recorded = ledger
        }
        guard let recorded else { throw BenchFailure("no round ran") }
        let events = try recorded.outgoingEventBacklog(at: Date().millisecondsSince1970).pending
        return (OutgoingEventIngestFigures(ledger: backend, notifications: customers * renewals, eventsPerRound: events,
                                           withoutEventsPerSecond: without, withEventsPerSecond: with), recorded)
    }

    /// Notifications a second: each customer's subscription bought, then renewed month after
    /// month, each period brought by a `DID_RENEW` notification carrying its transaction and
    /// renewal info, customers in turn. The notifications are made before the clock starts.
    private static func ingestRate(into ledger: Ledger, customers: Int) throws -> Double {
        let deliveries = try notifications(customers: customers)
        let started = ContinuousClock.now
        for delivery in deliveries {
            _ = try ledger.ingest(notification: delivery.notification, transaction: delivery.transaction, renewalInfo: delivery.renewal,
                                  customerID: delivery.customer) { _ in [Grant(item: "pass.days", amount: 30)] }
        }
        return Double(deliveries.count) / (ContinuousClock.now - started).seconds
    }

    /// One round's notifications, in the order they are ingested.
    private static func notifications(customers: Int) throws -> [(notification: ResponseBodyV2DecodedPayload, transaction: JWSTransactionDecodedPayload,
                                                    renewal: JWSRenewalInfoDecodedPayload, customer: String)] {
        let start = Date().addingTimeInterval(-Double(renewals - 1) * 30 * 86_400 - 86_400)
        var deliveries: [(ResponseBodyV2DecodedPayload, JWSTransactionDecodedPayload, JWSRenewalInfoDecodedPayload, String)] = []
        for period in 0..<renewals {
            for customer in 0..<customers {
                let bought = start.addingTimeInterval(Double(period) * 30 * 86_400 + Double(customer))
                let original = "bench-\(customer)"
                let transaction = JWSTransactionDecodedPayload(
                    originalTransactionId: original, transactionId: period == 0 ? original : "\(original)-\(period)",
                    bundleId: "com.example", productId: "pass.monthly", subscriptionGroupIdentifier: "G1", purchaseDate: bought,
                    originalPurchaseDate: start, expiresDate: bought.addingTimeInterval(30 * 86_400), quantity: 1,
                    type: .autoRenewableSubscription, inAppOwnershipType: .purchased, signedDate: bought, environment: .sandbox,
                    currency: "USD", price: 4990)
                let renewal = JWSRenewalInfoDecodedPayload(
                    originalTransactionId: original, autoRenewProductId: "pass.monthly", productId: "pass.monthly",
                    autoRenewStatus: .on, signedDate: bought, environment: .sandbox)
                let notification = ResponseBodyV2DecodedPayload(
                    notificationType: period == 0 ? .subscribed : .didRenew, notificationUUID: UUID().uuidString,
                    data: NotificationData(environment: .sandbox, bundleId: "com.example",
                                           signedTransactionInfo: try unsigned(transaction), signedRenewalInfo: try unsigned(renewal)),
                    version: "2.0", signedDate: bought)
                deliveries.append((notification, transaction, renewal, "customer-\(customer)"))
            }
        }
        return deliveries
    }

    /// The unsigned compact JWS of `payload`: the ledger stores JWS verbatim and leaves their
    /// verification to the layer before it.
    private static func unsigned(_ payload: some Encodable) throws -> String {
        let body = try SignedPayloadJSON.makeEncoder().encode(payload).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return "eyJhbGciOiJub25lIn0." + body + "."
    }

    /// Every pending event of `ledger` delivered to a receiver on loopback: events a second.
    private static func deliveryFigures(_ ledger: Ledger) async throws -> OutgoingEventDeliveryFigures {
        let events = try ledger.outgoingEventBacklog(at: Date().millisecondsSince1970).pending
        let server = try HTTPServer(handler: AcceptingReceiver(), configuration: HTTPServerConfiguration(port: 0, threads: 16))
        defer { server.stop(grace: .seconds(1)) }
        let sender = WebhookSender(url: URL(string: "http://127.0.0.1:\(server.port)/events")!, secret: .generate())
        let delivery = OutgoingEventDelivery(ledger: ledger, sink: sender)
        let started = ContinuousClock.now
        while try ledger.outgoingEventBacklog(at: Date().millisecondsSince1970).pending > 0 {
            guard try await delivery.deliverDueEvents() > 0 else { throw BenchFailure("events were pending and none was due") }
        }
        let seconds = (ContinuousClock.now - started).seconds
        let delivered = try ledger.outgoingEvents(OutgoingEventQuery(state: .delivered, limit: .max)).count
        guard delivered == events else { throw BenchFailure("\(delivered) of \(events) events were delivered") }
        return OutgoingEventDeliveryFigures(events: events, seconds: seconds, eventsPerSecond: Double(events) / seconds)
    }
}

/// A receiver that takes every event.
private struct AcceptingReceiver: HTTPHandler {
    func respond(to request: HTTPRequest) -> HTTPResponse { HTTPResponse(status: 204) }
    func refusal(status: Int, kind: String, message: String) -> HTTPResponse { HTTPResponse(status: status) }
    func recordRefusal(method: String?, status: Int) {}
    func servesTLS(certificate: X509Certificate) {}
}

/// Notification ingests with and without outgoing events on one ledger backend.
public struct OutgoingEventIngestFigures: Sendable, Encodable {
    /// `sqlite` or `postgres`.
    public var ledger: String
    /// Notifications ingested each round.
    public var notifications: Int
    /// Events a round recorded.
    public var eventsPerRound: Int
    /// The best rate without events.
    public var withoutEventsPerSecond: Double
    /// The best rate with events.
    public var withEventsPerSecond: Double
    /// With over without.
    public var ratio: Double { withEventsPerSecond / withoutEventsPerSecond }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ledger, forKey: .ledger)
        try container.encode(notifications, forKey: .notifications)
        try container.encode(eventsPerRound, forKey: .eventsPerRound)
        try container.encode(withoutEventsPerSecond, forKey: .withoutEventsPerSecond)
        try container.encode(withEventsPerSecond, forKey: .withEventsPerSecond)
        try container.encode(ratio, forKey: .ratio)
    }

    private enum CodingKeys: String, CodingKey {
        case ledger, notifications, eventsPerRound = "events_per_round", withoutEventsPerSecond = "without_events_per_second"
        case withEventsPerSecond = "with_events_per_second", ratio
    }
}

/// Events delivered to a receiver on loopback.
public struct OutgoingEventDeliveryFigures: Sendable, Encodable {
    /// Events delivered.
    public var events: Int
    /// Seconds from the first round to the last.
    public var seconds: Double
    /// Events a second.
    public var eventsPerSecond: Double

    private enum CodingKeys: String, CodingKey {
        case events, seconds, eventsPerSecond = "events_per_second"
    }
}

/// The events section of `storerules bench`.
public struct OutgoingEventBenchSection: Sendable, Encodable {
    /// Ingests with and without events, per ledger measured.
    public var ingests: [OutgoingEventIngestFigures] = []
    /// The delivery of the last round's events.
    public var delivery: OutgoingEventDeliveryFigures?
    /// Why a run failed.
    public var failed: String?

    private enum CodingKeys: String, CodingKey {
        case ingests = "outgoing_event_ingests", delivery = "outgoing_event_delivery", failed = "outgoing_events_failed"
    }
}
