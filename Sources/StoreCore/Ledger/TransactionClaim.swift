/// Why a customer may not claim a transaction: it belongs to another customer's account.
///
/// A transaction belongs to the customer its signed app account token is registered to, and
/// to no other; once stored for a customer, neither it nor a later transaction of the same
/// subscription (its original transaction id) is stored or granted for another. The refusal
/// names no customer: the caller claiming someone else's purchase learns nothing of its owner.
public enum TransactionClaimRefusal: String, Hashable, Sendable, CaseIterable {
    /// The transaction's app account token is registered to another customer.
    case tokenOfAnotherCustomer = "token_of_another_customer"
    /// The transaction, or another of its subscription, is stored for another customer.
    case storedForAnotherCustomer = "stored_for_another_customer"

    /// Why, in words that name no customer.
    public var description: String {
        switch self {
        case .tokenOfAnotherCustomer: "its app account token is registered to another customer"
        case .storedForAnotherCustomer: "it, or its subscription, is stored for another customer"
        }
    }
}
