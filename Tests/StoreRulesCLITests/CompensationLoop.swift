import Foundation
import Testing

/// A local store's API and a SQLite ledger fed its purchases, for `ledger
/// extend` to compensate: subscribers bought one by one, incident files written, and the
/// store's `RENEWAL_EXTENDED` notifications counted per customer.
struct CompensationLoop {
    let store: StoreAPIProcess
    let ledger: String

    /// A started store and an empty ledger.
    init() throws {
        store = try StoreAPIProcess()
        try store.start()
        ledger = LedgerReconcileTests.ledger(in: store, named: "service")
    }

    /// Buys `product` for `customer` at the store, ingests it into the ledger, and returns its
    /// original transaction id.
    @discardableResult
    func subscribe(_ customer: String, to product: String) throws -> String {
        let bought = try store.storeJSON(["purchase", product, "--customer", customer])
        let signed = try #require(bought["signed_transaction_info"] as? String, "\(bought)")
        let ingested = try CommandRunner.run(["ledger", "ingest", "Examples/BackyardBirds", "--ledger", ledger, "--root", store.rootPath,
                                              "--bundle-id", StoreAPIProcess.bundleID, "--environment", "Sandbox", "--customer", customer],
                                             input: signed)
        #expect(ingested.status == 0, "\(ingested.standardOutput)\(ingested.standardError)")
        let transaction = try #require(bought["transaction"] as? [String: Any], "\(bought)")
        return try #require(transaction["originalTransactionId"] as? String, "\(transaction)")
    }

    /// Writes `text` as the incident file `name` and returns its path.
    func incident(_ text: String, named name: String) throws -> String {
        let file = store.directory.appending(path: name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// `ledger extend … --incident FILE --json`, sending through the store.
    func extend(_ incident: String) throws -> CommandRunner.Result {
        try CommandRunner.run(["ledger", "extend", "Examples/BackyardBirds", "--ledger", ledger, "--incident", incident, "--root", store.rootPath,
                               "--bundle-id", StoreAPIProcess.bundleID, "--environment", "Sandbox", "--json"]
                              + ConsumptionLoopTests.clientOptions(store))
    }

    /// How many `RENEWAL_EXTENDED` notifications the store sent about each customer.
    func extensionsSent() throws -> [String: Int] {
        let notifications = try store.storeJSON(["notifications"])["notifications"] as? [[String: Any]] ?? []
        return notifications.filter { $0["notification_type"] as? String == "RENEWAL_EXTENDED" }
            .reduce(into: [:]) { counts, notification in counts[notification["customer_id"] as? String ?? "?", default: 0] += 1 }
    }
}
