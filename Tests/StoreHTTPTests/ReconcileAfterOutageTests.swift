import AppStoreServerAPI
import Foundation
import ServiceCommandLine
import SQLiteLedger
import StoreCore
import StoreService
import StoreTesting
import Testing
import TestPrerequisites

/// The test that matters for reconciliation, in process: the local store sends its
/// notifications to a notification URL nobody answers for a stretch of its clock (deliveries
/// fail, are retried, some past the store's last retry); one ``Reconciler`` run later every
/// customer's ledger equals that of a ledger that never missed a notification, and a second
/// run changes nothing — on SQLite and on PostgreSQL.
@Suite struct ReconcileAfterOutageTests {
    @Test("one reconcile after an outage makes the ledger equal to one that missed nothing; a second changes nothing",
          arguments: IncidentCompensationTests.backends)
    func reconcileAfterAnOutage(backend: String) async throws {
        let directory = try TestFolders.make("reconcile")
        defer { try? FileManager.default.removeItem(at: directory) }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = packageRoot.appending(path: "Examples/BackyardBirds")
        let authority = try SigningAuthority.generate(name: "StoreRules Reconcile Tests")
        let bundleID = CompensationHarness.bundleID
        let store = try LocalStore(
            catalog: try Catalog(contentsOf: folder.appending(path: "Products.storekit")), authority: authority,
            ledger: try Ledger(path: directory.appending(path: "store-ledger.sqlite").path),
            state: try Database(path: directory.appending(path: "store.sqlite").path),
            configuration: LocalStore.Configuration(bundleID: bundleID, environment: .sandbox), decide: { _ in [] })
        func service(_ name: String) throws -> Service {
            let location = try DecisionOutsideWriteHTTPTests.ledger(backend, in: directory.appending(path: name, directoryHint: .isDirectory))
            return try Service(configuration: ServiceConfiguration(
                folder: folder.path, ledger: location, rootCertificates: [authority.rootCertificate], bundleId: bundleID, environment: .sandbox))
        }
        try FileManager.default.createDirectory(at: directory.appending(path: "service"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appending(path: "reference"), withIntermediateDirectories: true)
        let reconciled = try service("service")
        let tokens = ["ana": UUID(), "ben": UUID()]
        for (customer, token) in tokens {
            _ = try reconciled.answer(.registerCustomer(customerID: customer, appAccountToken: token.uuidString.lowercased()))
        }
        func buy(_ product: String, _ customer: String) throws {
            guard case .success = try store.purchase(product, customer: customer, options: [.appAccountToken(tokens[customer] ?? UUID())]) else {
                throw CompensationHarness.Failure(description: "the purchase of \(product) for \(customer) did not succeed")
            }
        }
        // Before the outage, the service hears of every notification.
        try buy("pass.premium", "ana")
        try buy("pellet.box", "ben")
        for notification in try store.notifications() {
            _ = try reconciled.answer(.ingestNotification(jws: notification.signedPayload, customerID: nil))
        }

        // The service is down: every delivery fails, is retried, and the store gives up.
        try store.setNotificationURL(URL(string: "http://127.0.0.1:1/v1/notifications"))
        try buy("nectar.cup", "ana")
        try buy("pass.individual", "ben")
        _ = try store.advance(by: try #require(StoreDuration(iso8601: "P8D")))
        try buy("pellet.box", "ana")
        _ = try store.advance(by: try #require(StoreDuration(iso8601: "P1M")))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func customer(_ id: String, in service: Service) throws -> Data {
            try encoder.encode(try service.answer(.entitlements(customerID: id)))
        }
        let missed = try customer("ana", in: reconciled)

        let verifier = try SignedDataVerifier(rootCertificates: [authority.rootCertificate], bundleId: bundleID, environment: .sandbox)
        let client = try AppStoreServerAPIClient(key: try store.makeServerAPIKey().key, verifier: verifier,
                                                 baseURL: URL(string: "http://local.store")!,
                                                 transport: LocalStoreAPITransport(api: LocalStoreAPI(store: store)))
        let first = try await Reconciler(service: reconciled, client: client).reconcile()
        #expect(first.checkpointMoved)
        #expect(first.notificationOutcomes["processed", default: 0] > 0, "\(first)")

        let reference = try service("reference")
        let outbox = try store.notifications()
        for id in tokens.keys.sorted() {
            for notification in outbox where notification.customerID == id {
                _ = try reference.answer(.ingestNotification(jws: notification.signedPayload, customerID: id))
            }
        }
        for id in tokens.keys.sorted() {
            let after = try customer(id, in: reconciled), expected = try customer(id, in: reference)
            #expect(after == expected, "\(id): reconciled \(String(decoding: after, as: UTF8.self)), never missed \(String(decoding: expected, as: UTF8.self))")
        }
        #expect(missed != (try customer("ana", in: reconciled)), "the outage had lost something")

        let second = try await Reconciler(service: reconciled, client: client).reconcile()
        #expect(second.notificationOutcomes["processed"] == nil, "\(second)")
        #expect(Set(second.transactionOutcomes.keys).isSubset(of: ["already_finished"]), "\(second)")
    }
}
