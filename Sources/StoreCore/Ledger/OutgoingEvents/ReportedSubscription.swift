import Foundation

/// One subscription as an outgoing event reports it: the chain of transactions sharing an
/// original transaction id, at the time of the event.
public struct ReportedSubscription: Sendable, Hashable, Codable {
    /// The subscription's original transaction id.
    public var originalTransactionID: String
    /// Its subscription group.
    public var groupID: String
    /// The product of its latest transaction.
    public var productID: String
    /// Its latest transaction.
    public var transactionID: String
    /// Its renewal state, as StoreKit names it (`subscribed`, `inGracePeriod`, …).
    public var status: Product.SubscriptionInfo.RenewalState
    /// Whether it will renew, when the ledger has its renewal info.
    public var willAutoRenew: Bool?
    /// The product it renews into, when the renewal info names one other than ``productID``.
    public var renewsToProductID: String?
    /// When its current period ends.
    public var expiresDate: Date?
    /// When its grace period ends, while the App Store retries a failed charge.
    public var gracePeriodExpiresDate: Date?
    /// Why it expired, as the renewal info's `expirationIntent` (1 voluntary, 2 billing error, …).
    public var expirationReason: Int?
    /// The level of its product in the group (1 is the highest service), when the catalog knows it.
    public var groupLevel: Int?
    /// Whether its latest period is a free trial.
    public var isTrial: Bool
    /// Whether it is shared by a family member.
    public var isFamilyShared: Bool

    /// The subscription `status` describes.
    public init(_ status: Product.SubscriptionInfo.Status) {
        let transaction = status.transaction
        originalTransactionID = transaction.originalID
        groupID = status.subscriptionGroupID
        productID = transaction.productID
        transactionID = transaction.id
        self.status = status.state
        willAutoRenew = status.renewalInfo.flatMap { $0.autoRenewStatus.map { $0 == .on } }
        let preference = status.renewalInfo?.autoRenewPreference
        renewsToProductID = preference == transaction.productID ? nil : preference
        expiresDate = transaction.expirationDate
        gracePeriodExpiresDate = status.renewalInfo?.gracePeriodExpirationDate
        expirationReason = status.renewalInfo?.expirationReason?.rawValue
        groupLevel = status.groupLevel
        isTrial = transaction.offerDiscountType == .freeTrial
        isFamilyShared = transaction.ownershipType == .familyShared
    }

    private enum CodingKeys: String, CodingKey {
        case originalTransactionID = "original_transaction_id", groupID = "group_id", productID = "product_id"
        case transactionID = "transaction_id", status, willAutoRenew = "will_auto_renew"
        case renewsToProductID = "renews_to_product_id", expiresDate = "expires_date"
        case gracePeriodExpiresDate = "grace_period_expires_date", expirationReason = "expiration_reason"
        case groupLevel = "group_level", isTrial = "is_trial", isFamilyShared = "is_family_shared"
    }
}
