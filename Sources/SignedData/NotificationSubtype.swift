/// The detail of an App Store Server Notification V2 event (Apple's `Subtype`).
///
/// A value Apple adds later decodes and encodes unchanged; ``isKnown`` tells it apart.
public struct NotificationSubtype: AppStoreEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its JSON form, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `INITIAL_BUY`: The first purchase of a subscription, or of access through Family Sharing.
    public static let initialBuy = Self(rawValue: "INITIAL_BUY")

    /// `RESUBSCRIBE`: A resubscription to the same group after expiry.
    public static let resubscribe = Self(rawValue: "RESUBSCRIBE")

    /// `DOWNGRADE`: A downgrade, effective at the next renewal.
    public static let downgrade = Self(rawValue: "DOWNGRADE")

    /// `UPGRADE`: An upgrade, effective at once.
    public static let upgrade = Self(rawValue: "UPGRADE")

    /// `AUTO_RENEW_ENABLED`: Automatic renewal was turned on.
    public static let autoRenewEnabled = Self(rawValue: "AUTO_RENEW_ENABLED")

    /// `AUTO_RENEW_DISABLED`: Automatic renewal was turned off.
    public static let autoRenewDisabled = Self(rawValue: "AUTO_RENEW_DISABLED")

    /// `VOLUNTARY`: The subscription expired after the customer turned off renewal.
    public static let voluntary = Self(rawValue: "VOLUNTARY")

    /// `BILLING_RETRY`: The subscription expired after the billing-retry period ended.
    public static let billingRetry = Self(rawValue: "BILLING_RETRY")

    /// `PRICE_INCREASE`: The subscription expired because the customer did not consent to a price increase.
    public static let priceIncrease = Self(rawValue: "PRICE_INCREASE")

    /// `GRACE_PERIOD`: A renewal failed and the subscription is in its billing grace period.
    public static let gracePeriod = Self(rawValue: "GRACE_PERIOD")

    /// `PENDING`: The customer has not yet responded to a price increase.
    public static let pending = Self(rawValue: "PENDING")

    /// `ACCEPTED`: The customer consented to a price increase, or needed not to.
    public static let accepted = Self(rawValue: "ACCEPTED")

    /// `BILLING_RECOVERY`: A subscription that had failed to renew renewed.
    public static let billingRecovery = Self(rawValue: "BILLING_RECOVERY")

    /// `PRODUCT_NOT_FOR_SALE`: The subscription expired because the product was not for sale at renewal.
    public static let productNotForSale = Self(rawValue: "PRODUCT_NOT_FOR_SALE")

    /// `SUMMARY`: A renewal-date extension for all subscribers finished; the notification has a summary.
    public static let summary = Self(rawValue: "SUMMARY")

    /// `FAILURE`: A renewal-date extension failed for one subscription.
    public static let failure = Self(rawValue: "FAILURE")

    /// `UNREPORTED`: An external purchase token was not reported.
    public static let unreported = Self(rawValue: "UNREPORTED")

    /// Every value Apple documents, in Apple's order.
    public static let knownValues: [Self] = [
        .initialBuy,
        .resubscribe,
        .downgrade,
        .upgrade,
        .autoRenewEnabled,
        .autoRenewDisabled,
        .voluntary,
        .billingRetry,
        .priceIncrease,
        .gracePeriod,
        .pending,
        .accepted,
        .billingRecovery,
        .productNotForSale,
        .summary,
        .failure,
        .unreported,
    ]
}
