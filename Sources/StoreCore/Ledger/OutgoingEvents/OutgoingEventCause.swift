/// What made the ledger record an outgoing event.
public struct OutgoingEventCause: Sendable, Hashable, Codable {
    /// Where the change came from.
    public enum Source: String, Sendable, Hashable, Codable {
        /// An App Store Server Notification.
        case notification
        /// A transaction the app or an operator sent.
        case transaction
        /// Renewal info the app, an operator or a reconciliation sent.
        case renewalInfo = "renewal_info"
        /// A retry of unfinished transactions.
        case retry
        /// The clock: a period or grace period ended with nothing received.
        case clock
        /// A refund request answered.
        case refundRequest = "refund_request"
    }

    /// Where the change came from.
    public var source: Source
    /// The notification's UUID, when a notification made the change.
    public var notificationUUID: String?
    /// The notification's type.
    public var notificationType: String?
    /// The notification's subtype.
    public var subtype: String?

    /// A cause from `source`, with the notification that brought it when there is one.
    public init(source: Source, notificationUUID: String? = nil, notificationType: String? = nil, subtype: String? = nil) {
        self.source = source
        self.notificationUUID = notificationUUID
        self.notificationType = notificationType
        self.subtype = subtype
    }

    private enum CodingKeys: String, CodingKey {
        case source, notificationUUID = "notification_uuid", notificationType = "notification_type", subtype
    }
}
