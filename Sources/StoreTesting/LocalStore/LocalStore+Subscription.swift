import Foundation
import StoreCore

extension LocalStore {
    /// A customer's auto-renewable subscription in one group, as the store keeps it — what
    /// StoreKit Testing's transaction manager shows.
    ///
    /// A customer has one subscription per group, under one original transaction id, through
    /// every renewal, plan change and resubscription; a family member has one more for each
    /// subscription shared with them.
    public struct Subscription: Sendable, Hashable {
        /// The renewal state, with the cases of StoreKit's `RenewalState`.
        public enum State: String, Sendable, Hashable, CaseIterable {
            /// Active; renews or ends at the expiration date.
            case subscribed
            /// A renewal failed; service continues until the grace period ends.
            case inGracePeriod
            /// A renewal failed; the store retries billing, without service.
            case inBillingRetryPeriod
            /// Ended.
            case expired
            /// Refunded or revoked.
            case revoked

            /// The `data.status` of notifications about a subscription in this state.
            public var notificationStatus: AutoRenewableSubscriptionStatus {
                switch self {
                case .subscribed: .active
                case .inGracePeriod: .billingGracePeriod
                case .inBillingRetryPeriod: .billingRetry
                case .expired: .expired
                case .revoked: .revoked
                }
            }
        }

        /// The subscription's original transaction id.
        public let originalTransactionID: String
        /// The customer.
        public let customerID: String
        /// The subscription group.
        public let groupID: String
        /// The product of the current (or last) period.
        public let productID: String
        /// The product the next renewal is for: another one after a downgrade.
        public let autoRenewProductID: String
        /// Whether the subscription renews at the expiration date.
        public let willAutoRenew: Bool
        /// The renewal state.
        public let state: State
        /// The latest transaction.
        public let latestTransactionID: String
        /// The end of the current (or last) paid period.
        public let expirationDate: Date
        /// When the billing grace period ends, while in it.
        public let gracePeriodExpirationDate: Date?
        /// When billing retry ends, while renewal is failing.
        public let billingRetryExpirationDate: Date?
        /// Why the subscription expired or is failing to renew.
        public let expirationReason: ExpirationIntent?
        /// For a family member's shared subscription, the purchaser's original transaction id.
        public let sharedFromOriginalTransactionID: String?

        /// Creates a subscription value.
        public init(originalTransactionID: String, customerID: String, groupID: String, productID: String,
                    autoRenewProductID: String, willAutoRenew: Bool, state: State, latestTransactionID: String,
                    expirationDate: Date, gracePeriodExpirationDate: Date?, billingRetryExpirationDate: Date?,
                    expirationReason: ExpirationIntent?, sharedFromOriginalTransactionID: String?) {
            self.originalTransactionID = originalTransactionID
            self.customerID = customerID
            self.groupID = groupID
            self.productID = productID
            self.autoRenewProductID = autoRenewProductID
            self.willAutoRenew = willAutoRenew
            self.state = state
            self.latestTransactionID = latestTransactionID
            self.expirationDate = expirationDate
            self.gracePeriodExpirationDate = gracePeriodExpirationDate
            self.billingRetryExpirationDate = billingRetryExpirationDate
            self.expirationReason = expirationReason
            self.sharedFromOriginalTransactionID = sharedFromOriginalTransactionID
        }

        /// Whether the customer has it through Family Sharing.
        public var isFamilyShared: Bool { sharedFromOriginalTransactionID != nil }
    }
}
