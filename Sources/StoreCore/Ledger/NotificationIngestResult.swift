/// What ``Ledger/ingest(notification:transaction:renewalInfo:customerID:decide:)`` did with one
/// App Store Server Notification.
public enum NotificationIngestResult: Hashable, Sendable {
    /// The notification's UUID was processed before; nothing changed.
    case alreadyProcessed
    /// The notification is now processed; its transaction and renewal info (when it carries
    /// them) were ingested with these results.
    case processed(transaction: TransactionIngestResult?, renewalInfo: RenewalInfoIngestResult?)
}
