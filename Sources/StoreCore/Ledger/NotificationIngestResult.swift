/// What ``Ledger/ingest(notification:transaction:renewalInfo:customerID:decide:)`` did with one
/// App Store Server Notification.
public enum NotificationIngestResult: Hashable, Sendable {
    /// The notification's UUID was processed before; nothing changed.
    case alreadyProcessed
    /// The notification is now processed; its transaction and renewal info (when it carries
    /// them) were ingested with these results.
    case processed(transaction: TransactionIngestResult?, renewalInfo: RenewalInfoIngestResult?)
    /// The notification's transaction belongs to a customer the ledger does not know yet: the
    /// notification is kept (its renewal info stored) and is processed by
    /// ``Ledger/resolvePendingNotifications(decide:)`` once the customer is known. Why, in words.
    case pending(reason: String)
    /// The notification's transaction contradicts the one stored with its id (another
    /// customer, product, purchase date …): nothing it carries was stored; it is kept as a
    /// ``NotificationConflict`` for an operator (``Ledger/notificationConflicts()``, `ledger
    /// check`) and recorded as processed, so Apple is answered and stops sending it. Why, in words.
    case conflict(reason: String)
}
