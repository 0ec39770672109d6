import StoreCore

/// What a purchase in the ``LocalStore`` came to, with the cases of StoreKit's
/// `Product.PurchaseResult`.
public enum PurchaseResult: Sendable, Hashable {
    /// The purchase went through; carries the customer's verified transaction for it. The
    /// transaction is also stored and granted in the store's ledger.
    case success(VerifiedTransaction)
    /// The customer cancelled; nothing changed.
    case userCancelled
    /// The purchase waits for a parent's approval (Ask to Buy); carries the request to approve
    /// or decline.
    case pending(AskToBuyRequest)
}
