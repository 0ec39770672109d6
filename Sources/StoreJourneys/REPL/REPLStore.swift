import Foundation
import LuaBridge
import StoreCore
import SQLiteLedger
import StorePolicy
import StoreTesting

/// The REPL's local test store: a ledger and the store's state in a temporary folder, a
/// chain generated in memory, a manual clock, and the policy's grant hook deciding what
/// purchases grant.
final class REPLStore {
    private let store: LocalStore
    private let catalog: Catalog
    private let folder: URL
    private let clock: StoreTime
    private let engine: PolicyEngine

    init(catalog: Catalog, engine: PolicyEngine, start: Date) throws {
        self.catalog = catalog
        self.engine = engine
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("storerules-repl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ledger = try Ledger(path: folder.appendingPathComponent("ledger.sqlite").path)
        let clock = StoreTime(start)
        self.clock = clock
        store = try LocalStore(
            catalog: catalog, authority: SigningAuthority.generate(), ledger: ledger,
            state: try Database(path: folder.appendingPathComponent("store.sqlite").path),
            configuration: .init(bundleID: "com.example.storerules.repl", clock: .manual(startingAt: start)),
            decide: engine.grantDecision(for: ledger, catalog: catalog, storeTime: clock))
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Buys `productID` for `customerID`; returns what happened.
    func buy(_ productID: String, quantity: Int, customer customerID: String) throws -> [String] {
        clock.date = (try? store.now()) ?? clock.date
        let options: Set<PurchaseOption> = quantity == 1 ? [] : [.quantity(quantity)]
        switch try store.purchase(productID, customer: customerID, options: options) {
        case .success(let transaction):
            let id = transaction.payload.transactionId ?? "?"
            var lines = ["purchased \(productID) (transaction \(id))"]
            if let stored = try store.ledger.transaction(id: id), case .unfinished(let reason) = stored.grantState {
                lines.append("unfinished: \(reason)")
            }
            let grants = try store.ledger.grants(ofTransaction: id)
            if !grants.isEmpty { lines.append("granted " + grants.map { "+\($0.amount) \($0.item)" }.joined(separator: ", ")) }
            return lines
        case .pending(let request):
            return ["waiting for approval: Ask to Buy request \(request.id)"]
        case .userCancelled:
            return ["cancelled"]
        }
    }

    /// Moves the clock by `text` (`1M`, `P3D`, `PT2H`); returns the notifications sent.
    func advance(_ text: String) throws -> [String] {
        guard let duration = StoreDuration(shorthand: text) else {
            throw PolicyError(kind: .badRequest, reason: "\(text) is not a duration such as 1M, 3D, P1Y or PT2H")
        }
        let notifications = try store.advance(by: duration)
        clock.date = (try? store.now()) ?? clock.date
        return ["now \(ISO8601DateFormatter().string(from: try store.now()))"] + notifications.map { $0.words(namingProduct: false) }
    }

    /// Refunds the customer's latest transaction of `productID`.
    func refund(_ productID: String, customer customerID: String) throws -> [String] {
        guard let latest = try store.ledger.latestTransaction(customerID: customerID, productID: productID) else {
            throw PolicyError(kind: .badRequest, reason: "\(customerID) has no transaction for \(productID)")
        }
        return try store.refund(transactionID: latest.id).map { $0.words(namingProduct: false) }
    }

    /// Asks the policy again about the customer's unfinished grants, as a journey's `reload`
    /// step does; returns what happened to each.
    func retryUnfinished(customer customerID: String) throws -> [String] {
        clock.date = (try? store.now()) ?? clock.date
        return try engine.retryUnfinishedGrants(customerID: customerID, in: store, catalog: catalog, storeTime: clock).map { result in
            let retried = "retried transaction \(result.transaction.id) (\(result.transaction.productID))"
            switch result.outcome {
            case .granted(let grants) where grants.isEmpty: return retried + ": granted nothing"
            case .granted(let grants): return retried + ": granted " + grants.map { "+\($0.amount) \($0.item)" }.joined(separator: ", ")
            case .unfinished(let reason): return retried + ": still unfinished: \(reason)"
            default: return retried
            }
        }
    }

    /// The store's now and the customer's context from the ledger.
    func customer(_ customerID: String, attributes: [String: LuaValue]) throws -> (Date, CustomerContext) {
        let now = try store.now()
        return (now, try CustomerContext(customerID: customerID, ledger: store.ledger, catalog: catalog, at: now, attributes: attributes))
    }
}
