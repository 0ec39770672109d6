import AppStoreServerAPI
import Foundation
import PostgresLedger
import ServiceCommandLine
import SQLiteLedger
import StoreCore
import StorePolicy
import StoreService
import StoreTesting
import Testing
import TestPrerequisites

/// ``IncidentCompensation`` compensates each subscriber once per incident, the incident known by
/// what it means: saved again in other words it extends nobody again, changed it is another
/// incident, a subscriber sent its own request is not reached again by a mass extension, and
/// records written under the incident file's digest (as earlier versions keyed them) still
/// count; on SQLite and on PostgreSQL, with the local store playing Apple in process.
@Suite struct IncidentCompensationTests {
    /// The PostgreSQL server of the run, when `STORERULES_TEST_POSTGRES_URL` names one.
    static let postgresServer = ProcessInfo.processInfo.environment["STORERULES_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    /// SQLite always; PostgreSQL with a server, and always under CI, where a missing one fails.
    static let backends = TestPrerequisite.runs(postgresServer != nil) ? ["sqlite", "postgres"] : ["sqlite"]

    @Test("an incident extends its subscribers once: a mass extension for a shared product, one request for a lone subscriber",
          arguments: backends)
    func extendsOnce(backend: String) async throws {
        let loop = try CompensationHarness(backend)
        for (customer, product) in [("ana", "pass.premium"), ("ben", "pass.premium"), ("cara", "pass.family")] {
            try loop.subscribe(customer, to: product)
        }
        let now = Date()
        let incident = #"{"start":"\#(now.addingTimeInterval(-29 * 3600).formatted(.iso8601))","#
            + #""end":"\#(now.addingTimeInterval(300).formatted(.iso8601))","#
            + #""reason":"feeder cams down","products":["pass.premium","pass.family"]}"#
        let planned = try loop.plan(incident)
        #expect(planned.massProducts["pass.premium"]?.days == 2, "\(planned.massProducts)")
        #expect(planned.massProducts["pass.premium"]?.reason == .serviceIssueOrOutage, "\(planned.massProducts)")
        #expect(planned.entries.contains { $0.customerID == "cara" }, "\(planned.entries)")
        #expect(planned.entries.allSatisfy { $0.sentBefore == nil }, "\(planned.entries)")
        #expect(try loop.store.notifications().contains { $0.notificationType == .renewalExtended } == false, "a plan sends nothing")

        let (applied, summary) = try await loop.apply(incident)
        #expect(summary.sent == 2, "one mass extension and one single: \(summary)")
        #expect(applied.entries.count == 3)
        #expect(applied.entries.filter { applied.massProducts[$0.subscription.productID] != nil }.count == 2)
        let notifications = try loop.store.notifications()
        #expect(notifications.filter { $0.notificationType == .renewalExtended }.count == 3, "\(notifications.map(\.notificationType))")
        #expect(notifications.contains { $0.notificationType == .renewalExtension && $0.subtype == .summary })

        let (_, again) = try await loop.apply(incident)
        #expect(again.sent == 0 && again.alreadySent == 2, "\(again)")
        #expect(try loop.store.notifications().count == notifications.count, "a second run extends nobody again")
        let listed = try loop.plan(incident)
        #expect(listed.massProducts["pass.premium"]?.days == 2, "\(listed.massProducts)")
        #expect(listed.entries.count == 3 && listed.entries.allSatisfy { $0.sentBefore != nil }, "each subscriber is listed as sent: \(listed.entries)")
    }

    @Test("the same incident saved again in other words extends nobody again, and a changed incident is a new one",
          arguments: backends)
    func resavedIncident(backend: String) async throws {
        let loop = try CompensationHarness(backend)
        for (customer, product) in [("ana", "pass.premium"), ("ben", "pass.premium"), ("cara", "pass.family")] {
            try loop.subscribe(customer, to: product)
        }
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - 29 * 3600)
        let end = start.addingTimeInterval(29 * 3600 + 300)
        let first = #"{"start":"\#(start.formatted(.iso8601))","end":"\#(end.formatted(.iso8601))","#
            + #""reason":"feeder cams down","products":["pass.premium","pass.family"]}"#
        let (applied, appliedSummary) = try await loop.apply(first)
        #expect(appliedSummary.sent == 2, "one mass extension and one single: \(appliedSummary)")
        #expect(try loop.extensionsSent() == ["ana": 1, "ben": 1, "cara": 1])

        let offset = ISO8601DateFormatter()
        offset.timeZone = TimeZone(secondsFromGMT: 2 * 3600)
        let resaved = """
            {
                "products" : [ "pass.family", "pass.premium" ],
                "reason" : "feeder cams down",
                "end" : "\(offset.string(from: end))",
                "start" : \(Int(start.timeIntervalSince1970))
            }

            """
        let planned = try loop.plan(resaved)
        #expect(planned.incidentKey == applied.incidentKey)
        for entry in planned.entries {
            #expect(entry.sentBefore != nil, "\(entry.customerID): \(entry)")
            #expect(entry.why == nil, "\(entry.customerID): \(entry)")
        }
        let (_, again) = try await loop.apply(resaved)
        #expect(again.sent == 0 && again.alreadySent == 2, "\(again)")
        #expect(try loop.extensionsSent() == ["ana": 1, "ben": 1, "cara": 1], "the same incident saved again extends nobody again")

        let changed = #"{"start":"\#(start.formatted(.iso8601))","end":"\#(end.formatted(.iso8601))","#
            + #""reason":"feeder cams down","products":["pass.family"]}"#
        let plannedChange = try loop.plan(changed)
        #expect(plannedChange.entries.map(\.customerID) == ["cara"])
        #expect(plannedChange.entries.first?.sentBefore == nil, "\(plannedChange.entries)")
        let (_, appliedChange) = try await loop.apply(changed)
        #expect(appliedChange.sent == 1, "\(appliedChange)")
        #expect(try loop.extensionsSent() == ["ana": 1, "ben": 1, "cara": 2], "another incident is compensated on its own")
    }

    @Test("a subscriber sent its own extension is not extended again when its product later has a mass extension",
          arguments: backends)
    func ownRequestThenMass(backend: String) async throws {
        let loop = try CompensationHarness(backend)
        try loop.subscribe("ben", to: "pass.premium")
        let now = Date()
        let incident = #"{"start":"\#(now.addingTimeInterval(-3600).formatted(.iso8601))","#
            + #""end":"\#(now.addingTimeInterval(600).formatted(.iso8601))","reason":"sync down"}"#
        let (_, alone) = try await loop.apply(incident)
        #expect(alone.sent == 1, "\(alone)")
        try loop.subscribe("cara", to: "pass.premium")
        let (plan, both) = try await loop.apply(incident)
        #expect(both.sent == 1 && both.alreadySent == 1, "\(both)")
        #expect(plan.entries.allSatisfy { plan.massProducts[$0.subscription.productID] == nil }, "\(plan.massProducts)")
        #expect(try loop.extensionsSent() == ["ben": 1, "cara": 1])
    }

    @Test("an extension recorded under the incident file's digest is not sent again for that file, nor, once it ran, for the incident saved again",
          arguments: backends)
    func recordsUnderTheFileDigest(backend: String) async throws {
        let loop = try CompensationHarness(backend)
        let ben = try loop.subscribe("ben", to: "pass.premium")
        let now = Date()
        let start = now.addingTimeInterval(-3600).formatted(.iso8601), end = now.addingTimeInterval(600).formatted(.iso8601)
        let text = #"{"start": "\#(start)", "end": "\#(end)", "reason": "sync down"}"# + "\n"
        try loop.service.ledger.recordRenewalExtension(RenewalExtensionRecord(
            requestIdentifier: UUID().uuidString.lowercased(), incidentDigest: SHA256Digest.hex(of: Data(text.utf8)),
            originalTransactionID: ben, customerID: "ben", productID: "pass.premium", storefronts: nil, days: 1, reasonCode: 3,
            state: .sent, updatedDate: now.millisecondsSince1970))
        let planned = try loop.plan(text)
        #expect(planned.entries.first { $0.customerID == "ben" }?.sentBefore != nil, "\(planned.entries)")
        let (_, applied) = try await loop.apply(text)
        #expect(applied.sent == 0 && applied.alreadySent == 1, "\(applied)")
        let resaved = #"{"reason":"sync down","end":"\#(end)","start":"\#(start)"}"#
        let (again, againSummary) = try await loop.apply(resaved)
        #expect(again.entries.first { $0.customerID == "ben" }?.sentBefore != nil, "\(again.entries)")
        #expect(againSummary.sent == 0 && againSummary.alreadySent == 1, "\(againSummary)")
        #expect(try loop.extensionsSent().isEmpty)
    }
}

/// The local store playing Apple in process, and a Backyard Birds service over a new ledger on
/// one backend fed the store's purchases, for ``IncidentCompensation`` to compensate through the
/// store's App Store Server API: incidents read from their files' text as `ledger extend` reads
/// them, and the store's `RENEWAL_EXTENDED` notifications counted per customer.
struct CompensationHarness {
    static let bundleID = "com.example.backyardbirds"

    let store: LocalStore
    let service: Service
    let client: AppStoreServerAPIClient

    /// A store and a service over an empty ledger on `backend` ("sqlite" or "postgres").
    init(_ backend: String) throws {
        let directory = try TestFolders.make("compensation")
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = packageRoot.appending(path: "Examples/BackyardBirds")
        let authority = try SigningAuthority.generate(name: "StoreRules Compensation Tests")
        store = try LocalStore(
            catalog: try Catalog(contentsOf: folder.appending(path: "Products.storekit")), authority: authority,
            ledger: try Ledger(path: directory.appending(path: "store-ledger.sqlite").path),
            state: try Database(path: directory.appending(path: "store.sqlite").path),
            configuration: LocalStore.Configuration(bundleID: Self.bundleID, environment: .sandbox),
            decide: { _ in [] })
        service = try Service(configuration: ServiceConfiguration(
            folder: folder.path, ledger: try DecisionOutsideWriteHTTPTests.ledger(backend, in: directory),
            rootCertificates: [authority.rootCertificate], bundleId: Self.bundleID, environment: .sandbox))
        let verifier = try SignedDataVerifier(rootCertificates: [authority.rootCertificate], bundleId: Self.bundleID, environment: .sandbox)
        client = try AppStoreServerAPIClient(key: try store.makeServerAPIKey().key, verifier: verifier,
                                             baseURL: URL(string: "http://local.store")!,
                                             transport: LocalStoreAPITransport(api: LocalStoreAPI(store: store)))
    }

    /// Buys `product` for `customer` at the store, ingests it into the service's ledger, and
    /// returns its original transaction id.
    @discardableResult
    func subscribe(_ customer: String, to product: String) throws -> String {
        guard case .success(let bought) = try store.purchase(product, customer: customer) else {
            throw Failure(description: "the purchase of \(product) for \(customer) did not succeed")
        }
        _ = try service.answer(.ingestTransaction(customerID: customer, jws: bought.jwsRepresentation))
        return try #require(bought.payload.originalTransactionId)
    }

    /// The plan for the incident file holding `text`, keyed as `ledger extend` keys it.
    func plan(_ text: String) throws -> CompensationPlan {
        let data = Data(text.utf8)
        return try IncidentCompensation(service: service).plan(try Incident.decode(json: data), fileDigest: SHA256Digest.hex(of: data))
    }

    /// The plan for the incident file holding `text`, and what sending it through the store did.
    func apply(_ text: String) async throws -> (CompensationPlan, CompensationSummary) {
        let plan = try plan(text)
        return (plan, try await IncidentCompensation(service: service).apply(plan, client: client))
    }

    /// How many `RENEWAL_EXTENDED` notifications the store sent about each customer.
    func extensionsSent() throws -> [String: Int] {
        try store.notifications().filter { $0.notificationType == .renewalExtended }
            .reduce(into: [:]) { counts, notification in counts[notification.customerID, default: 0] += 1 }
    }

    /// A step of the set-up that did not go as planned.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
