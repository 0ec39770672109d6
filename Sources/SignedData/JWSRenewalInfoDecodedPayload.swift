import Foundation

/// The renewal information of an auto-renewable subscription signed by the App Store
/// (`JWSRenewalInfo`), decoded.
///
/// Property names are Apple's JSON field names, so a real App Store payload decodes unchanged;
/// fields StoreRules does not model are ignored. Dates are carried at millisecond precision;
/// read and write them with ``SignedPayloadJSON``.
public struct JWSRenewalInfoDecodedPayload: SignedPayload, Hashable {
    /// Why the subscription expired, once it has.
    public var expirationIntent: ExpirationIntent?
    /// The transaction identifier of the original purchase.
    public var originalTransactionId: String?
    /// The product the subscription renews to at the next renewal.
    public var autoRenewProductId: String?
    /// The product of the current subscription period.
    public var productId: String?
    /// Whether the subscription renews at the end of the period.
    public var autoRenewStatus: AutoRenewStatus?
    /// Whether the App Store is still trying to renew the subscription after a billing issue.
    public var isInBillingRetryPeriod: Bool?
    /// Whether the customer responded to a price increase.
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// When the billing grace period ends.
    public var gracePeriodExpiresDate: Date?
    /// The kind of offer applied to the next renewal.
    public var offerType: OfferType?
    /// The identifier of the offer applied to the next renewal.
    public var offerIdentifier: String?
    /// When the App Store signed this payload.
    public var signedDate: Date?
    /// The server environment that signed the renewal info.
    public var environment: AppStoreEnvironment?
    /// The start of the most recent run of paid periods without a lapse longer than 60 days.
    public var recentSubscriptionStartDate: Date?
    /// When the subscription renews next.
    public var renewalDate: Date?
    /// The three-letter ISO 4217 currency code of the renewal price.
    public var currency: String?
    /// The renewal price in milli-units of the currency (9990 is 9.99).
    public var renewalPrice: Int64?
    /// How the offer applied to the next renewal charges the customer.
    public var offerDiscountType: OfferDiscountType?
    /// The win-back offers the customer can redeem, best first.
    public var eligibleWinBackOfferIds: [String]?
    /// The UUID the app attached to the purchase, as a lowercase UUID string.
    public var appAccountToken: String?
    /// The identifier of the app download transaction.
    public var appTransactionId: String?
    /// The ISO 8601 duration of the offer applied to the next renewal, such as `P1M`.
    public var offerPeriod: String?
    /// The billing plan the subscription renews to.
    public var renewalBillingPlanType: String?

    /// Creates a renewal-info payload; every field is optional, as in Apple's payloads.
    public init(
        expirationIntent: ExpirationIntent? = nil,
        originalTransactionId: String? = nil,
        autoRenewProductId: String? = nil,
        productId: String? = nil,
        autoRenewStatus: AutoRenewStatus? = nil,
        isInBillingRetryPeriod: Bool? = nil,
        priceIncreaseStatus: PriceIncreaseStatus? = nil,
        gracePeriodExpiresDate: Date? = nil,
        offerType: OfferType? = nil,
        offerIdentifier: String? = nil,
        signedDate: Date? = nil,
        environment: AppStoreEnvironment? = nil,
        recentSubscriptionStartDate: Date? = nil,
        renewalDate: Date? = nil,
        currency: String? = nil,
        renewalPrice: Int64? = nil,
        offerDiscountType: OfferDiscountType? = nil,
        eligibleWinBackOfferIds: [String]? = nil,
        appAccountToken: String? = nil,
        appTransactionId: String? = nil,
        offerPeriod: String? = nil,
        renewalBillingPlanType: String? = nil
    ) {
        self.expirationIntent = expirationIntent
        self.originalTransactionId = originalTransactionId
        self.autoRenewProductId = autoRenewProductId
        self.productId = productId
        self.autoRenewStatus = autoRenewStatus
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.priceIncreaseStatus = priceIncreaseStatus
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.signedDate = signedDate
        self.environment = environment
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.currency = currency
        self.renewalPrice = renewalPrice
        self.offerDiscountType = offerDiscountType
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.renewalBillingPlanType = renewalBillingPlanType
    }
}
