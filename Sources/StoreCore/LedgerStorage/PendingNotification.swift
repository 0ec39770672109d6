/// A verified notification whose transaction belongs to a customer the ledger does not know
/// yet: kept, not refused, until the customer is known (registered with the transaction's
/// app account token, or owning a transaction with its original id).
public struct PendingNotification: Hashable, Sendable, Codable {
    /// Its `notificationUUID`.
    public var uuid: String
    /// Its `notificationType`.
    public var type: String?
    /// Its `subtype`.
    public var subtype: String?
    /// Its `signedDate`, in epoch milliseconds.
    public var signedDate: Int64?
    /// The verified `signedTransactionInfo`, verbatim.
    public var transactionJWS: String
    /// The transaction's id.
    public var transactionID: String
    /// The transaction's original id, by which a later transaction of its customer finds it.
    public var originalTransactionID: String
    /// The transaction's app account token, by which a registered customer finds it.
    public var appAccountToken: String?
    /// When the ledger received it, in epoch milliseconds.
    public var receivedDate: Int64

    /// Describes a pending notification.
    public init(
        uuid: String, type: String?, subtype: String?, signedDate: Int64?, transactionJWS: String, transactionID: String,
        originalTransactionID: String, appAccountToken: String?, receivedDate: Int64
    ) {
        self.uuid = uuid
        self.type = type
        self.subtype = subtype
        self.signedDate = signedDate
        self.transactionJWS = transactionJWS
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.appAccountToken = appAccountToken
        self.receivedDate = receivedDate
    }
}
