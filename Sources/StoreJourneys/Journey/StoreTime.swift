import Foundation
import StoreCore
import StorePolicy
import StoreTesting
import Synchronization

/// The local store's time as a grant decision reads it.
///
/// A store's `decide` closure runs inside the store's operations and must not call the store,
/// so it cannot ask `LocalStore.now()`; the session keeps this copy up to date before each
/// operation instead. A transaction the store signs while it catches up on what an `advance`
/// passed (a renewal, say) is dated at the moment it happened, which can be later than the
/// copy: its decision then happens at its `signedDate`.
public final class StoreTime: Sendable {
    private let value: Mutex<Date>

    /// A copy that reads `date` until it is set.
    public init(_ date: Date) {
        value = Mutex(date)
    }

    /// The store's time, as last read from the store.
    public var date: Date {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }

    /// The moment the decision about `transaction` is made: the store's time, or the moment
    /// the store signed the transaction when that is later.
    public func decisionDate(for transaction: StoredTransaction) -> Date {
        max(date, transaction.signedDate)
    }
}

extension PolicyEngine {
    /// The ledger's grant decision for a local store: the policy's `grant` hook, with the
    /// customer's context at the moment `time` gives for each transaction.
    public func grantDecision(for ledger: Ledger, catalog: Catalog?, storeTime time: StoreTime)
        -> @Sendable (StoredTransaction) throws -> [Grant] {
        { [self] transaction in
            try grantDecision(for: ledger, catalog: catalog, clock: { time.decisionDate(for: transaction) })(transaction)
        }
    }
}
