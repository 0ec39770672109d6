import StoreCore
import StorePolicy
import StoreTesting

extension PolicyEngine {
    /// Asks the policy again about `customerID`'s transactions whose grants `store`'s ledger
    /// holds unfinished, as after a reload: the `grant` hook decides each, at the moment
    /// `storeTime` gives for it.
    ///
    /// - Returns: the ledger's result for each transaction retried.
    /// - Throws: what ``StoreCore/Ledger/retryUnfinished(customerID:decide:)`` throws.
    @discardableResult
    public func retryUnfinishedGrants(customerID: String, in store: LocalStore, catalog: Catalog,
                                      storeTime: StoreTime) throws -> [TransactionIngestResult] {
        try store.ledger.retryUnfinished(customerID: customerID, decide: grantDecision(
            for: store.ledger, catalog: catalog, storeTime: storeTime))
    }
}
