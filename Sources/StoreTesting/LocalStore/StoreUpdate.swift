import StoreCore

/// One change the ``LocalStore`` announces on ``LocalStore/updates()``, in the order it made them.
///
/// Transactions and renewal infos arrive after the store's ledger has ingested them, as
/// StoreKit's `Transaction.updates` delivers them to an app; notifications as the App Store
/// posts them to a server.
public enum StoreUpdate: Sendable, Hashable {
    /// A new or changed transaction of `customerID` (a purchase, a renewal, a refund …).
    case transaction(VerifiedTransaction, customerID: String)
    /// New renewal info of one of `customerID`'s subscriptions.
    case renewalInfo(VerifiedRenewalInfo, customerID: String)
    /// A notification added to the outbox.
    case notification(StoreNotification)
}
