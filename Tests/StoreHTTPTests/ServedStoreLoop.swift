import AppStoreServerAPI
import Foundation
import PostgresLedger
import ServiceCommandLine
import SQLiteLedger
import SQLiteLedger
import StoreCore
import StoreHTTP
import StoreService
import StoreTesting
import Synchronization
import TestPrerequisites

/// The local store playing Apple beside the service as `storerules serve` runs it, in process:
/// the router served on a free loopback port over a new ledger on a backend (SQLite, or
/// PostgreSQL when `STORERULES_TEST_POSTGRES_URL` names a server), the store posting its
/// notifications and its cancel screen's requests there over HTTP, and — with the store's API
/// key — refund requests answered in the background through the store's App Store Server API,
/// promotional offers signed with that key.
final class ServedStoreLoop {
    static let bundleID = "com.example.backyardbirds"
    /// The PostgreSQL server of the run, when `STORERULES_TEST_POSTGRES_URL` names one.
    static let postgresServer = ProcessInfo.processInfo.environment["STORERULES_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    /// SQLite always; PostgreSQL with a server, and always under CI, where a missing one fails.
    static let backends = TestPrerequisite.runs(postgresServer != nil) ? ["sqlite", "postgres"] : ["sqlite"]
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let directory: URL
    let authority: SigningAuthority
    let store: LocalStore
    let service: Service
    let router: HTTPRouter
    let server: HTTPServer
    /// The store's API key the service answers with, when it has one.
    let key: AppStoreServerAPIKey?
    private let refunds: ConsumptionSchedule?
    private let lines = LogLines()

    /// What the service logged so far: the router's lines and the refund schedule's.
    var log: String { lines.text }
    /// `http://127.0.0.1:PORT`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(server.port)")! }

    /// A store in `environment` (naming its app `appAppleID`) and a service over a new ledger on
    /// `backend` trusting the store's root, deciding with the Backyard Birds policy, answering
    /// through the store's API unless `withStoreAPIKey` is false.
    init(backend: String, withStoreAPIKey: Bool = true, environment: AppStoreEnvironment = .sandbox, appAppleID: Int64? = nil) throws {
        directory = try TestFolders.make("served-store")
        let authority = try SigningAuthority.generate()
        self.authority = authority
        let example = Self.packageRoot.appending(path: "Examples/BackyardBirds")
        store = try Self.store(in: directory, authority: authority, environment: environment, appAppleID: appAppleID)
        var configuration = ServiceConfiguration(
            folder: example.path, ledger: try Self.freshLedger(backend, in: directory),
            rootCertificates: [authority.rootCertificate], bundleId: Self.bundleID, environment: environment)
        configuration.appAppleId = appAppleID
        let service = try Service(configuration: configuration)
        self.service = service
        let lines = lines
        let log: @Sendable (String) -> Void = { line in lines.append(line) }
        var client: AppStoreServerAPIClient?
        if withStoreAPIKey {
            let verifier = try SignedDataVerifier(rootCertificates: [authority.rootCertificate], bundleId: Self.bundleID,
                                                  appAppleId: appAppleID, environment: environment)
            client = try AppStoreServerAPIClient(key: try store.makeServerAPIKey().key, verifier: verifier,
                                                 baseURL: URL(string: "http://local.store")!,
                                                 transport: LocalStoreAPITransport(api: LocalStoreAPI(store: store)))
        }
        key = client?.tokens.key
        let router = HTTPRouter(service: service, access: .unauthenticated,
                            offerSigner: client.map { PromotionalOfferSignatureIssuer(key: $0.tokens.key, bundleID: Self.bundleID) }, log: log)
        self.router = router
        server = try HTTPServer(handler: router, configuration: HTTPServerConfiguration(port: 0, threads: 2))
        refunds = client.map { ConsumptionSchedule(responder: ConsumptionResponder(service: service, client: $0, recorder: router.recorder), log: log) }
        try store.setNotificationURL(baseURL.appending(path: "v1/notifications"))
        try store.setRetentionURL(baseURL.appending(path: "v1/apple/retention"))
    }

    deinit {
        refunds?.stop()
        server.stop(grace: .zero)
        try? FileManager.default.removeItem(at: directory)
    }

    /// A store in `directory` signing with `authority`.
    static func store(in directory: URL, authority: SigningAuthority, environment: AppStoreEnvironment, appAppleID: Int64?) throws -> LocalStore {
        try LocalStore(
            catalog: try Catalog(contentsOf: packageRoot.appending(path: "Examples/BackyardBirds/Products.storekit")), authority: authority,
            ledger: try Ledger(path: directory.appending(path: "store-ledger.sqlite").path),
            state: try Database(path: directory.appending(path: "store.sqlite").path),
            configuration: LocalStore.Configuration(bundleID: bundleID, environment: environment, appAppleID: appAppleID),
            decide: { _ in [] })
    }

    /// A new, empty ledger on `backend`: a SQLite file in `directory`, or a new database on the run's server.
    static func freshLedger(_ backend: String, in directory: URL) throws -> LedgerLocation {
        guard backend == "postgres" else { return .sqlite(path: directory.appending(path: "service.sqlite").path) }
        guard let server = postgresServer else { throw Unavailable() }
        let name = "served_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgresConnection(url: server).execute("CREATE DATABASE \(name)")
        let withoutQuery = server.split(separator: "?", maxSplits: 1).first.map(String.init) ?? server
        guard let scheme = withoutQuery.range(of: "://"), let slash = withoutQuery[scheme.upperBound...].firstIndex(of: "/") else {
            return .postgres(url: withoutQuery + "/" + name)
        }
        return .postgres(url: String(withoutQuery[..<slash]) + "/" + name)
    }

    /// Buys `product` for `customer` (with `token`, when given), sends the store's notifications,
    /// and returns the transaction id.
    @discardableResult
    func buy(_ product: String, customer: String = "ana", token: String? = nil) throws -> String {
        let options: Set<PurchaseOption> = token.flatMap(UUID.init(uuidString:)).map { [.appAccountToken($0)] } ?? []
        guard case .success(let bought) = try store.purchase(product, customer: customer, options: options),
              let id = bought.payload.transactionId else { throw Unavailable() }
        try store.sendDueNotifications()
        return id
    }

    /// The answers the store's API received about `transactionID`, once there is one, or none after a minute.
    func answers(to transactionID: String) async throws -> [ConsumptionRecord] {
        try await eventually { try store.consumptionRecords(transactionID: transactionID) } until: { !$0.isEmpty }
    }

    /// `read()`'s value once `done` holds of it, or its last after `seconds`; it waits without
    /// holding a thread the service's background work needs.
    func eventually<Value>(seconds: Double = 60, _ read: () throws -> Value, until done: (Value) -> Bool) async throws -> Value {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while true {
            let value = try read()
            if done(value) || Date() > deadline { return value }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The metrics the router exposes.
    var metrics: String { router.metrics.exposition(unfinishedTransactions: nil, policyVersion: "v") }

    /// The lines logged, in order, from any thread.
    final class LogLines: Sendable {
        private let lines = Mutex<[String]>([])

        func append(_ line: String) {
            lines.withLock { $0.append(line) }
        }

        var text: String { lines.withLock { $0.joined(separator: "\n") } }
    }

    /// A step the loop could not take.
    struct Unavailable: Error {}
}
