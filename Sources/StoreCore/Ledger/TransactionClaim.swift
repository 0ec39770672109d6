/// A customer presenting a received transaction as theirs: what the ledger judges the claim by.
public struct TransactionClaim: Hashable, Sendable {
    /// The transaction's id.
    public let transactionID: String
    /// Its subscription's original transaction id (its own id for a one-time purchase).
    public let originalID: String
    /// The app account token it was signed with, in canonical form, when it has one.
    public let appAccountToken: String?
    /// The customer presenting it.
    public let customerID: String

    /// The claim of `customerID` to the transaction `transactionID`.
    public init(transactionID: String, originalID: String, appAccountToken: String?, customerID: String) {
        self.transactionID = transactionID
        self.originalID = originalID
        self.appAccountToken = appAccountToken
        self.customerID = customerID
    }

    /// The claim a received transaction makes for the customer it was received for.
    init(_ received: StoredTransaction) {
        self.init(transactionID: received.id, originalID: received.originalID, appAccountToken: received.appAccountToken,
                  customerID: received.customerID)
    }
}

/// A claimed transaction as the ledger holds it: stored or not, and why the claim is refused,
/// when it is.
public struct ClaimedTransaction: Sendable {
    /// The transaction stored with the claimed id, if any.
    public let stored: StoredTransaction?
    /// Why the claim is refused; nil when it stands.
    public let refusal: TransactionClaimRefusal?

    /// A claim's reading.
    public init(stored: StoredTransaction?, refusal: TransactionClaimRefusal?) {
        self.stored = stored
        self.refusal = refusal
    }
}

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
