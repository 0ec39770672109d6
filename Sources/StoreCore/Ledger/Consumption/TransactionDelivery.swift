import Foundation

/// What the ledger delivered of a transaction a customer asks a refund of: whether and when it
/// granted it, and what. A refund answer is about what the customer received, so it reads this
/// rather than the customer's balances alone, which cannot tell "all used" from "never given".
public struct TransactionDelivery: Sendable, Hashable {
    /// One grant of the transaction, and whether a refund or revocation took it back.
    public struct DeliveredGrant: Sendable, Hashable {
        /// The item granted.
        public var item: String
        /// How many of it.
        public var amount: Int
        /// Whether the grant was reversed because the transaction was refunded or revoked.
        public var isReversed: Bool

        /// A grant of `amount` of `item`, reversed or not.
        public init(item: String, amount: Int, isReversed: Bool = false) {
            self.item = item
            self.amount = amount
            self.isReversed = isReversed
        }
    }

    /// The transaction's grant state in the ledger; nil when the ledger does not store it (its
    /// notification kept until its customer is known, or never received).
    public var grantState: GrantState?
    /// When the ledger recorded the grant decision, for a granted transaction.
    public var grantedDate: Date?
    /// What the grant decision granted, in its order (empty when it granted nothing or is not
    /// granted).
    public var grants: [DeliveredGrant]

    /// A delivery as described.
    public init(grantState: GrantState?, grantedDate: Date? = nil, grants: [DeliveredGrant] = []) {
        self.grantState = grantState
        self.grantedDate = grantedDate
        self.grants = grants
    }

    /// A transaction the ledger does not store: nothing delivered.
    public static let notStored = TransactionDelivery(grantState: nil)

    /// Whether the ledger granted the transaction: its grant decision, possibly granting
    /// nothing (a subscription), is recorded.
    public var isGranted: Bool { grantState == .granted }

    /// Whether the ledger may still grant it: it is not stored yet, or stored unfinished. A
    /// transaction revoked before its grant is settled without one.
    public var mayStillBeGranted: Bool {
        guard let grantState else { return true }
        return !grantState.isFinished
    }
}
