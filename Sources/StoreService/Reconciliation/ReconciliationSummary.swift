/// What one reconcile read and what it changed.
public struct ReconciliationSummary: Encodable, Sendable, Equatable {
    /// The window of notification history read, in milliseconds since 1970.
    public var windowStart: Int64
    /// Its end.
    public var windowEnd: Int64
    /// Notifications read (those that failed to arrive, then all of the window).
    public var notificationsRead = 0
    /// What ingesting them did, by outcome: `processed`, `already_processed`, `pending`.
    public var notificationOutcomes: [String: Int] = [:]
    /// Customers whose transaction history and subscription statuses were read.
    public var customers = 0
    /// Transactions read from histories and statuses.
    public var transactionsRead = 0
    /// What ingesting them did, by outcome: `granted`, `already_finished`, `unfinished`, ….
    public var transactionOutcomes: [String: Int] = [:]
    /// Renewal infos read from subscription statuses and stored or kept.
    public var renewalInfosRead = 0
    /// What could not be done, each a sentence; the checkpoint moves only when there is none.
    public var failures: [String] = []
    /// Whether the checkpoint moved to ``windowEnd``.
    public var checkpointMoved = false

    /// Everything the reconcile changed: notifications processed, and transactions whose
    /// ingest was anything but `already_finished`.
    public var changes: Int {
        notificationOutcomes["processed", default: 0]
            + transactionOutcomes.filter { $0.key != "already_finished" }.values.reduce(0, +)
    }

    private enum CodingKeys: String, CodingKey {
        case windowStart = "window_start", windowEnd = "window_end", notificationsRead = "notifications_read"
        case notificationOutcomes = "notification_outcomes", customers, transactionsRead = "transactions_read"
        case transactionOutcomes = "transaction_outcomes", renewalInfosRead = "renewal_infos_read", failures
        case checkpointMoved = "checkpoint_moved"
    }
}
