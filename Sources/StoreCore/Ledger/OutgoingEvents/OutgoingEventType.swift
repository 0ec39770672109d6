/// What an outgoing event reports: a fact the ledger decided about a customer.
///
/// docs/events.md lists each type with its fields and its equivalents in RevenueCat's webhooks
/// and Apple's App Store Server Notifications.
public enum OutgoingEventType: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// A purchase that is not an auto-renewable subscription was granted.
    case purchaseGranted = "purchase.granted"
    /// A subscription began to give service: a first purchase, or a lapsed one bought again.
    case subscriptionStarted = "subscription.started"
    /// A subscription renewed into a new period.
    case subscriptionRenewed = "subscription.renewed"
    /// A subscription in grace period or billing retry was charged and renewed.
    case subscriptionRecovered = "subscription.recovered"
    /// A subscription moved to a product of a higher level of service in its group.
    case subscriptionUpgraded = "subscription.upgraded"
    /// A subscription moved, or will move at its renewal, to a lower level of service.
    case subscriptionDowngraded = "subscription.downgraded"
    /// A subscription moved, or will move at its renewal, to another product of the same level.
    case subscriptionCrossgraded = "subscription.crossgraded"
    /// The customer turned off the subscription's automatic renewal.
    case subscriptionRenewalDisabled = "subscription.renewal_disabled"
    /// The customer turned the subscription's automatic renewal back on.
    case subscriptionRenewalEnabled = "subscription.renewal_enabled"
    /// The App Store could not charge the customer; service goes on until the grace period ends.
    case subscriptionGracePeriodStarted = "subscription.grace_period_started"
    /// The App Store could not charge the customer and keeps trying; service has stopped.
    case subscriptionBillingRetryStarted = "subscription.billing_retry_started"
    /// The subscription stopped giving service and is not being retried.
    case subscriptionExpired = "subscription.expired"
    /// The subscription's current period was made longer without a new charge.
    case subscriptionExtended = "subscription.extended"
    /// The App Store refunded a transaction; its grants were reversed.
    case transactionRefunded = "transaction.refunded"
    /// The App Store revoked a transaction shared through Family Sharing; its grants were reversed.
    case transactionRevoked = "transaction.revoked"
    /// A refund or revocation was withdrawn; the reversed grants were restored.
    case transactionRefundReversed = "transaction.refund_reversed"
    /// The products the customer is entitled to changed.
    case entitlementsChanged = "entitlements.changed"
    /// A refund request's consumption information was answered, refused or let expire.
    case refundRequestAnswered = "refund_request.answered"

    /// The type as it is written in an event.
    public var description: String { rawValue }
}
