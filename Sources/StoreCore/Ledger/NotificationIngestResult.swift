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
}
