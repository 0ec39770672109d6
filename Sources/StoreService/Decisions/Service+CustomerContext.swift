import Foundation
import StoreCore
import StorePolicy

extension Service {
    /// The customer as the ledger knows them now, and the context the policy decides in.
    ///
    /// Both come from one snapshot of the ledger, so a response never mixes two moments.
    func context(of customerID: String) throws(ServiceError) -> (state: CustomerState, context: PolicyContext) {
        let state: CustomerState
        do {
            state = try ledger.customerState(customerID: customerID, catalog: catalog, at: clock(), signedData: false)
        } catch {
            throw .ledger(error)
        }
        var context = PolicyContext(state: state, catalog: catalog, engine: engine, environment: verifier.environment)
        context.customer.attributes = customerAttributes(customerID)
        return (state, context)
    }

    /// The context a decision about the transaction `transactionID` is made in, and its
    /// customer: the customer who owns it, as the ledger knows them now; for a transaction the
    /// ledger does not know (yet), a customer whose status is unknown, at `now` (the service's
    /// clock when nil) in `storefront`.
    ///
    /// - Throws: ``ServiceError`` when the ledger cannot be read: a customer it may know is
    ///   never decided on as one it does not.
    func context(ofTransaction transactionID: String, storefront: String = "USA",
                 now: Date? = nil) throws(ServiceError) -> (context: PolicyContext, customerID: String?) {
        let customerID: String?
        do {
            customerID = try ledger.transaction(id: transactionID)?.customerID
        } catch {
            throw .ledger(error)
        }
        guard let customerID else {
            let unknown = PolicyContext(now: now ?? clock(), storefront: storefront, environment: PolicyContext.Environment(verifier.environment),
                                        customer: CustomerContext(statusKnown: false))
            return (unknown, nil)
        }
        return (try context(of: customerID).context, customerID)
    }
}
