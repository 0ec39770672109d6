/// The event an App Store Server Notification V2 reports.
///
/// A value Apple adds later decodes and encodes unchanged; ``isKnown`` tells it apart.
public struct NotificationTypeV2: AppStoreEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its JSON form, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `SUBSCRIBED`: The customer subscribed; the subtype tells an initial buy from a resubscription.
    public static let subscribed = Self(rawValue: "SUBSCRIBED")

    /// `DID_CHANGE_RENEWAL_PREF`: The customer changed the plan the subscription renews to.
    public static let didChangeRenewalPref = Self(rawValue: "DID_CHANGE_RENEWAL_PREF")

    /// `DID_CHANGE_RENEWAL_STATUS`: The customer turned automatic renewal on or off.
    public static let didChangeRenewalStatus = Self(rawValue: "DID_CHANGE_RENEWAL_STATUS")

    /// `OFFER_REDEEMED`: The customer redeemed an offer.
    public static let offerRedeemed = Self(rawValue: "OFFER_REDEEMED")

    /// `DID_RENEW`: The subscription renewed.
    public static let didRenew = Self(rawValue: "DID_RENEW")

    /// `EXPIRED`: The subscription expired.
    public static let expired = Self(rawValue: "EXPIRED")

    /// `DID_FAIL_TO_RENEW`: A renewal failed because of a billing issue.
    public static let didFailToRenew = Self(rawValue: "DID_FAIL_TO_RENEW")

    /// `GRACE_PERIOD_EXPIRED`: The billing grace period ended without a renewal.
    public static let gracePeriodExpired = Self(rawValue: "GRACE_PERIOD_EXPIRED")

    /// `PRICE_INCREASE`: The system told the customer about a price increase.
    public static let priceIncrease = Self(rawValue: "PRICE_INCREASE")

    /// `REFUND`: The App Store refunded a transaction.
    public static let refund = Self(rawValue: "REFUND")

    /// `REFUND_DECLINED`: The App Store declined a refund request.
    public static let refundDeclined = Self(rawValue: "REFUND_DECLINED")

    /// `CONSUMPTION_REQUEST`: The App Store asks for consumption data for a refund request.
    public static let consumptionRequest = Self(rawValue: "CONSUMPTION_REQUEST")

    /// `RENEWAL_EXTENDED`: The App Store extended the renewal date of a subscription.
    public static let renewalExtended = Self(rawValue: "RENEWAL_EXTENDED")

    /// `REVOKE`: Family Sharing access to a purchase ended.
    public static let revoke = Self(rawValue: "REVOKE")

    /// `TEST`: A test notification requested through the App Store Server API.
    public static let test = Self(rawValue: "TEST")

    /// `RENEWAL_EXTENSION`: A renewal-date extension for all subscribers progressed or finished.
    public static let renewalExtension = Self(rawValue: "RENEWAL_EXTENSION")

    /// `REFUND_REVERSED`: The App Store reversed a refund.
    public static let refundReversed = Self(rawValue: "REFUND_REVERSED")

    /// `EXTERNAL_PURCHASE_TOKEN`: An external purchase token was created but not reported.
    public static let externalPurchaseToken = Self(rawValue: "EXTERNAL_PURCHASE_TOKEN")

    /// `ONE_TIME_CHARGE`: The customer bought a consumable, non-consumable or non-renewing subscription.
    public static let oneTimeCharge = Self(rawValue: "ONE_TIME_CHARGE")

    /// `RESCIND_CONSENT`: A parent or guardian withdrew consent for a child's use of the app.
    public static let rescindConsent = Self(rawValue: "RESCIND_CONSENT")

    /// `METADATA_UPDATE`: Metadata of an Advanced Commerce subscription changed.
    public static let metadataUpdate = Self(rawValue: "METADATA_UPDATE")

    /// `MIGRATION`: An Advanced Commerce subscription was migrated.
    public static let migration = Self(rawValue: "MIGRATION")

    /// `PRICE_CHANGE`: The price of an Advanced Commerce subscription changed.
    public static let priceChange = Self(rawValue: "PRICE_CHANGE")

    /// Every value Apple documents, in Apple's order.
    public static let knownValues: [Self] = [
        .subscribed,
        .didChangeRenewalPref,
        .didChangeRenewalStatus,
        .offerRedeemed,
        .didRenew,
        .expired,
        .didFailToRenew,
        .gracePeriodExpired,
        .priceIncrease,
        .refund,
        .refundDeclined,
        .consumptionRequest,
        .renewalExtended,
        .revoke,
        .test,
        .renewalExtension,
        .refundReversed,
        .externalPurchaseToken,
        .oneTimeCharge,
        .rescindConsent,
        .metadataUpdate,
        .migration,
        .priceChange,
    ]
}
