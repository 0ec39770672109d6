/// A verified notification whose transaction contradicts what the ledger stored for it (another
/// customer, product, purchase date …). Apple would send it again for ever if it were refused,
/// so it is answered, kept for an operator and listed by `ledger check`; nothing it carries
/// changes the ledger.
public struct NotificationConflict: Hashable, Sendable, Codable {
    /// Its `notificationUUID`.
    public var uuid: String
    /// Its `notificationType`.
    public var type: String?
    /// Its `subtype`.
    public var subtype: String?
    /// The transaction's id.
    public var transactionID: String
    /// The field that differs.
    public var field: String
    /// The field's stored value.
    public var stored: String
    /// The field's value in the notification.
    public var received: String
    /// The verified `signedTransactionInfo`, verbatim.
    public var transactionJWS: String
    /// When the ledger received it, in epoch milliseconds.
    public var receivedDate: Int64

    /// Describes a conflicting notification.
    public init(uuid: String, type: String?, subtype: String?, transactionID: String, field: String, stored: String,
                received: String, transactionJWS: String, receivedDate: Int64) {
        self.uuid = uuid
        self.type = type
        self.subtype = subtype
        self.transactionID = transactionID
        self.field = field
        self.stored = stored
        self.received = received
        self.transactionJWS = transactionJWS
        self.receivedDate = receivedDate
    }
}
