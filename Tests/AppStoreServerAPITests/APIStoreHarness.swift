import AppStoreServerAPI
import Foundation
import StoreCore
import SQLiteLedger
import StoreTesting
import TestPrerequisites

/// A local store over the Backyard Birds catalog in the Sandbox environment, serving its App
/// Store Server API, and a client holding a key it made: the client's real code from the JWT
/// to the verification, with the transport in process (`LocalStoreAPITransport`).
struct APIStoreHarness {
    static let bundleID = "com.example.backyardbirds"
    static let authority: SigningAuthority = {
        do {
            return try SigningAuthority.generate()
        } catch {
            fatalError("cannot generate the test signing authority: \(error)")
        }
    }()

    let directory: URL
    let store: LocalStore
    let api: LocalStoreAPI
    let key: AppStoreServerAPIKey
    let client: AppStoreServerAPIClient

    init(retry: Backoff = .never) throws {
        directory = try TestFolders.make("api-store")
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let catalog = try Catalog(contentsOf: packageRoot.appending(path: "Examples/BackyardBirds/Products.storekit"))
        store = try LocalStore(
            catalog: catalog, authority: Self.authority, ledger: try Ledger(path: directory.appending(path: "ledger.sqlite").path),
            state: try Database(path: directory.appending(path: "store.sqlite").path),
            configuration: LocalStore.Configuration(bundleID: Self.bundleID, environment: .sandbox, clock: .manual(startingAt: Date())),
            decide: { _ in [] })
        api = LocalStoreAPI(store: store)
        key = try store.makeServerAPIKey().key
        client = try Self.client(key: key, api: api, retry: retry)
    }

    /// A client of `api` signing with `key`.
    static func client(key: AppStoreServerAPIKey, api: LocalStoreAPI, retry: Backoff = .never) throws -> AppStoreServerAPIClient {
        let verifier = try SignedDataVerifier(rootCertificates: [authority.rootCertificate], bundleId: bundleID, environment: .sandbox)
        return try AppStoreServerAPIClient(key: key, verifier: verifier, baseURL: URL(string: "http://local.store")!,
                                           transport: LocalStoreAPITransport(api: api), retry: retry)
    }

    /// Buys `productID` for `customer` and returns the transaction id.
    @discardableResult
    func buy(_ productID: String, _ customer: String = "ana", quantity: Int? = nil) throws -> String {
        var options: Set<PurchaseOption> = []
        if let quantity { options.insert(.quantity(quantity)) }
        guard case .success(let transaction) = try store.purchase(productID, customer: customer, options: options),
              let id = transaction.payload.transactionId
        else { throw HarnessFailure("the purchase of \(productID) did not succeed") }
        return id
    }
}

/// A harness step that did not go as the test expected.
struct HarnessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
