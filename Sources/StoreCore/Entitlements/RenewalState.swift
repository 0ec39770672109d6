import Foundation

extension Product.SubscriptionInfo {
    /// The renewal state of an auto-renewable subscription, as StoreKit's
    /// `Product.SubscriptionInfo.RenewalState` names it.
    ///
    /// Only ``subscribed`` and ``inGracePeriod`` give service (``givesService``).
    ///
    /// ``init(transaction:renewalInfo:at:)`` derives the state of a subscription from its
    /// latest transaction and its renewal info, checking in this order:
    ///
    /// 1. the transaction carries a `revocationDate` (a refund, a revoked family share):
    ///    ``revoked``, whatever the date;
    /// 2. the transaction `isUpgraded` (the customer moved to a higher level, which superseded
    ///    it): ``expired``;
    /// 3. the date is before the transaction's `expiresDate`: ``subscribed``, whether or not it
    ///    will renew;
    /// 4. the period has ended, the renewal info's `gracePeriodExpiresDate` is after the date,
    ///    and `isInBillingRetryPeriod` is not `false`: ``inGracePeriod``;
    /// 5. the period has ended and `isInBillingRetryPeriod` is `true`: ``inBillingRetryPeriod``;
    /// 6. otherwise ``expired``. A transaction without `expiresDate` has no known period and
    ///    counts as ended.
    ///
    /// The renewal info is the App Store's word on retries: StoreRules does not end a billing
    /// retry by itself after Apple's sixty days, it waits for the renewal info that says so.
    public enum RenewalState: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// The subscription is active: within its paid (or offer) period.
        case subscribed
        /// The subscription ended: it was not renewed, or an upgrade superseded it.
        case expired
        /// The period ended because the App Store could not charge the customer, and it is
        /// still trying; the customer has no service meanwhile.
        case inBillingRetryPeriod
        /// The period ended because the App Store could not charge the customer, and the
        /// customer keeps service until the grace period ends.
        case inGracePeriod
        /// The App Store refunded or revoked the subscription.
        case revoked

        /// Whether the state gives the customer service: ``subscribed`` or ``inGracePeriod``.
        public var givesService: Bool {
            self == .subscribed || self == .inGracePeriod
        }

        /// The state's name, as StoreKit spells it.
        public var description: String { rawValue }

        /// The state of a subscription whose latest transaction is `transaction` and whose
        /// renewal info is `renewalInfo` (nil when none is known), at `date`; see
        /// ``Product/SubscriptionInfo/RenewalState`` for the rules.
        public init(transaction: StoredTransaction, renewalInfo: StoredRenewalInfo?, at date: Date) {
            if transaction.isRevoked {
                self = .revoked
            } else if transaction.isUpgraded {
                self = .expired
            } else if let expiration = transaction.expirationDate, date < expiration {
                self = .subscribed
            } else if let renewalInfo, renewalInfo.isInBillingRetry != false,
                let graceEnd = renewalInfo.gracePeriodExpirationDate, date < graceEnd
            {
                self = .inGracePeriod
            } else if renewalInfo?.isInBillingRetry == true {
                self = .inBillingRetryPeriod
            } else {
                self = .expired
            }
        }
    }
}
