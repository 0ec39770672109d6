import Foundation
import StoreCore

/// A purchase waiting for, or given, a parent's answer (StoreKit Testing's "Pending Ask to Buy").
public struct AskToBuyRequest: Sendable, Hashable, Identifiable {
    /// Where a request stands.
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// Waiting for an answer.
        case pending
        /// Approved: the purchase went through.
        case approved
        /// Declined: no transaction was made.
        case declined
    }

    /// The request's identifier, to pass to ``LocalStore/approveAskToBuy(_:)`` or
    /// ``LocalStore/declineAskToBuy(_:)``.
    public let id: String
    /// The customer who asked.
    public let customerID: String
    /// The product asked for.
    public let productID: String
    /// The purchase options asked with; they apply on approval.
    public let options: Set<PurchaseOption>
    /// When the customer asked.
    public let requestDate: Date
    /// Where the request stands.
    public let state: State
    /// The transaction of an approved request.
    public let transactionID: String?

    /// Creates a request value.
    public init(id: String, customerID: String, productID: String, options: Set<PurchaseOption>,
                requestDate: Date, state: State, transactionID: String?) {
        self.id = id
        self.customerID = customerID
        self.productID = productID
        self.options = options
        self.requestDate = requestDate
        self.state = state
        self.transactionID = transactionID
    }
}
