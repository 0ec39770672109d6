import Foundation
import SignedData

extension Product.SubscriptionInfo {
    /// The status of one auto-renewable subscription of a customer in a subscription group, as
    /// StoreKit's `Product.SubscriptionInfo.Status` gives it: the renewal state, the latest
    /// transaction and the renewal info.
    ///
    /// A subscription is one chain of transactions sharing an original transaction id: the
    /// first purchase, its renewals, and the upgrades, downgrades and crossgrades within the
    /// group. A customer usually has one per group; one shared through Family Sharing adds
    /// another (``CustomerState/subscriptionStatuses(inGroup:)``).
    public struct Status: Sendable, Hashable {
        /// The subscription group.
        public var subscriptionGroupID: String
        /// The renewal state at the date the status was derived for.
        public var state: RenewalState
        /// The subscription's latest transaction (see ``latestTransaction(of:)``).
        public var transaction: StoredTransaction
        /// The subscription's renewal info, when the ledger has one for its original
        /// transaction id.
        public var renewalInfo: StoredRenewalInfo?
        /// The level of ``transaction``'s product in its group (1 is the highest service), when
        /// the catalog knows the product.
        public var groupLevel: Int?

        /// Creates a status from its parts.
        public init(subscriptionGroupID: String, state: RenewalState, transaction: StoredTransaction,
                    renewalInfo: StoredRenewalInfo?, groupLevel: Int?) {
            self.subscriptionGroupID = subscriptionGroupID
            self.state = state
            self.transaction = transaction
            self.renewalInfo = renewalInfo
            self.groupLevel = groupLevel
        }

        /// Derives the status of the subscription made of `transactions` (one chain, in any
        /// order) at `date`: its latest transaction (``latestTransaction(of:)``), and the state
        /// ``RenewalState/init(transaction:renewalInfo:at:)`` gives it with `renewalInfo`; the
        /// level is that of the latest transaction's product in `catalog`.
        ///
        /// Returns `nil` when `transactions` is empty.
        public init?(subscriptionGroupID: String, transactions: [StoredTransaction], renewalInfo: StoredRenewalInfo?,
                     catalog: Catalog?, at date: Date) {
            guard let latest = Self.latestTransaction(of: transactions) else { return nil }
            self.init(subscriptionGroupID: subscriptionGroupID,
                      state: RenewalState(transaction: latest, renewalInfo: renewalInfo, at: date),
                      transaction: latest, renewalInfo: renewalInfo,
                      groupLevel: catalog?.product(id: latest.productID)?.subscription?.groupLevel)
        }

        /// The transaction that speaks for a subscription: among its transactions not marked
        /// `isUpgraded`, the one that expires last (a transaction without `expiresDate` counts
        /// as expiring at its purchase), then the one bought last, then the greatest
        /// transaction id. When every transaction is upgraded, the same order picks among all.
        ///
        /// Expiry decides before purchase because an upgrade's new transaction is bought in the
        /// middle of the old period, while renewals expire later than what they renew.
        public static func latestTransaction(of transactions: [StoredTransaction]) -> StoredTransaction? {
            let current = transactions.filter { !$0.isUpgraded }
            return (current.isEmpty ? transactions : current).max { lhs, rhs in
                (lhs.expirationDate ?? lhs.purchaseDate, lhs.purchaseDate, lhs.id)
                    < (rhs.expirationDate ?? rhs.purchaseDate, rhs.purchaseDate, rhs.id)
            }
        }

        /// Whether the subscription gives service: ``RenewalState/subscribed`` or
        /// ``RenewalState/inGracePeriod``.
        public var givesService: Bool { state.givesService }

        /// Whether the subscription renews by itself at the end of its period: the renewal
        /// info's `autoRenewStatus` is on. `false` when no renewal info is known.
        public var willAutoRenew: Bool { renewalInfo?.willAutoRenew ?? false }

        /// The product the subscription renews to (`autoRenewProductId`), when the renewal info
        /// says.
        public var autoRenewProductID: String? { renewalInfo?.autoRenewPreference }

        /// The downgrade or crossgrade the customer scheduled for the next renewal: the
        /// ``autoRenewProductID`` when it differs from the current transaction's product and
        /// the subscription will renew; `nil` otherwise.
        public var scheduledRenewalProductID: String? {
            guard willAutoRenew, let next = autoRenewProductID, next != transaction.productID else { return nil }
            return next
        }

        /// When the current period ends (the latest transaction's `expiresDate`).
        public var expirationDate: Date? { transaction.expirationDate }

        /// When the billing grace period ends (`gracePeriodExpiresDate`), when the renewal info
        /// says.
        public var gracePeriodExpirationDate: Date? { renewalInfo?.gracePeriodExpirationDate }

        /// Why the subscription expired (`expirationIntent`), when the renewal info says.
        public var expirationReason: ExpirationIntent? { renewalInfo?.expirationReason }

        /// Whether the customer has the subscription through Family Sharing.
        public var isFamilyShared: Bool { transaction.ownershipType == .familyShared }
    }
}
