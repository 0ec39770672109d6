/// Why a ``CustomerState`` could not be built from the records given. Nothing is built then.
public enum CustomerStateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The customer id is empty.
    case emptyCustomerID
    /// A transaction belongs to another customer than the one the state is for.
    case transactionOfAnotherCustomer(transactionID: String, owner: String, customerID: String)
    /// The same transaction id appears twice.
    case duplicateTransaction(String)
    /// Two renewal infos share an original transaction id.
    case duplicateRenewalInfo(originalTransactionID: String)
    /// A renewal info belongs to no auto-renewable subscription among the customer's
    /// transactions.
    case unrelatedRenewalInfo(originalTransactionID: String)

    /// One line describing the problem.
    public var description: String {
        switch self {
        case .emptyCustomerID:
            "a customer id must not be empty"
        case .transactionOfAnotherCustomer(let transactionID, let owner, let customerID):
            "transaction \(transactionID) belongs to customer \(owner), not \(customerID)"
        case .duplicateTransaction(let transactionID):
            "transaction \(transactionID) is given twice"
        case .duplicateRenewalInfo(let originalTransactionID):
            "two renewal infos are given for original transaction \(originalTransactionID)"
        case .unrelatedRenewalInfo(let originalTransactionID):
            "the renewal info of original transaction \(originalTransactionID) matches none of the customer's auto-renewable subscriptions"
        }
    }
}
