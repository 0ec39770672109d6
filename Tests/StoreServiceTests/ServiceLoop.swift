import AppStoreServerAPI
import Foundation
import StoreCore
import SQLiteLedger
import StoreService
import StoreTesting
import TestPrerequisites

/// The local store playing Apple, and a service over a new SQLite ledger whose customer `ana`
/// bought a box of pellets and fed four of them to the birds: notifications go from the store
/// to the service as `POST /v1/notifications` hands them over, and the client talks to the
/// store's App Store Server API in process.
struct ServiceLoop {
    static let bundleID = "com.example.backyardbirds"
    static let authority: SigningAuthority = {
        do {
            return try SigningAuthority.generate()
        } catch {
            fatalError("cannot generate the test signing authority: \(error)")
        }
    }()

    /// A step of the set-up that did not go as planned.
    struct Failure: Error {}

    let directory: URL
    let store: LocalStore
    let service: Service
    let client: AppStoreServerAPIClient
    let transactionID: String
    let token: UUID
    var serviceLedgerPath: String { directory.appending(path: "service.sqlite").path }

    /// A loop whose store runs on `clock`; its service decides at the store's clock, read from
    /// the store's state file, when `serviceFollowsStoreClock`, else at the host's.
    init(clock: StoreClock = .system, serviceFollowsStoreClock: Bool = false) throws {
        directory = try TestFolders.make("service-loop")
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = packageRoot.appending(path: "Examples/BackyardBirds")
        store = try LocalStore(
            catalog: try Catalog(contentsOf: folder.appending(path: "Products.storekit")), authority: ServiceLoop.authority,
            ledger: try Ledger(path: directory.appending(path: "store-ledger.sqlite").path),
            state: try Database(path: directory.appending(path: "store.sqlite").path),
            configuration: LocalStore.Configuration(bundleID: ServiceLoop.bundleID, environment: .sandbox, clock: clock),
            decide: { _ in [] })
        var configuration = ServiceConfiguration(
            folder: folder.path, ledger: SQLiteLedgerFile(path: directory.appending(path: "service.sqlite").path),
            rootCertificates: [ServiceLoop.authority.rootCertificate], bundleId: ServiceLoop.bundleID,
            environment: .sandbox)
        if serviceFollowsStoreClock {
            let storeClock = try LocalStoreClockReader(statePath: directory.appending(path: "store.sqlite").path)
            configuration.clock = { storeClock.now() }
        }
        service = try Service(configuration: configuration)
        let verifier = try SignedDataVerifier(rootCertificates: [ServiceLoop.authority.rootCertificate],
                                              bundleId: ServiceLoop.bundleID, environment: .sandbox)
        client = try AppStoreServerAPIClient(key: try store.makeServerAPIKey().key, verifier: verifier,
                                             baseURL: URL(string: "http://local.store")!,
                                             transport: LocalStoreAPITransport(api: LocalStoreAPI(store: store)))
        token = UUID()
        _ = try service.answer(.registerCustomer(customerID: "ana", appAccountToken: token.uuidString.lowercased()))
        guard case .success(let bought) = try store.purchase("pellet.box", customer: "ana", options: [.appAccountToken(token)]),
              let id = bought.payload.transactionId else { throw Failure() }
        transactionID = id
        try deliver(try store.notifications())
        for _ in 0..<4 { _ = try service.answer(.recordEvent(customerID: "ana", name: "fed_pellet", placement: nil)) }
    }

    func deliver(_ notifications: [StoreNotification]) throws {
        for notification in notifications {
            _ = try service.answer(.ingestNotification(jws: notification.signed.jwsRepresentation, customerID: nil))
        }
    }

    /// Runs `body` while the service ledger's transactions cannot be read.
    func withTransactionsUnreadable<T>(_ body: () async throws -> T) async throws -> T {
        let database = try Database(path: serviceLedgerPath)
        try database.write { try $0.execute("ALTER TABLE store_transaction RENAME TO store_transaction_away") }
        let result = try await body()
        try database.write { try $0.execute("ALTER TABLE store_transaction_away RENAME TO store_transaction") }
        return result
    }
}
