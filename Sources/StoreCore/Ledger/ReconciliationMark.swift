/// Where reconciling with the App Store Server API got to, kept in the ledger so the next
/// reconcile — in any process, on any machine of a fleet — starts there: a checkpoint (the end
/// of the last notification history window read in full) under a name, or a customer's
/// transaction history revision under their customer id.
public struct ReconciliationMark: Sendable, Hashable, Codable {
    /// What is marked: the checkpoint's name (`notifications`), or a revision's customer id.
    public let key: String
    /// The kind of mark.
    public let kind: Kind
    /// The checkpoint's milliseconds since 1970, or the revision's token.
    public let value: String
    /// When it was last set, in milliseconds since 1970.
    public let updatedDate: Int64

    /// A kind of mark.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The end of the last notification history window reconciled.
        case checkpoint
        /// A customer's transaction history revision.
        case revision
    }

    /// Describes a mark.
    public init(key: String, kind: Kind, value: String, updatedDate: Int64) {
        self.key = key
        self.kind = kind
        self.value = value
        self.updatedDate = updatedDate
    }
}
