import Foundation
import SignedData

/// The renewal information of an auto-renewable subscription as the ``Ledger`` stores it: the
/// verbatim signed JWS and its decoded fields, one per original transaction id (the newest by
/// `signedDate` wins).
///
/// Names follow StoreKit 2's `Product.SubscriptionInfo.RenewalInfo`.
public struct StoredRenewalInfo: Hashable, Sendable, Codable {
    /// The original transaction id of the subscription (`originalTransactionId`).
    public var originalTransactionID: String
    /// The product the customer is subscribed to now (`productId`).
    public var currentProductID: String?
    /// The product that renews at the next renewal date (`autoRenewProductId`).
    public var autoRenewPreference: String?
    /// Whether the subscription renews by itself (`autoRenewStatus`).
    public var autoRenewStatus: AutoRenewStatus?
    /// Why the subscription expired (`expirationIntent`).
    public var expirationReason: ExpirationIntent?
    /// Whether the App Store is trying to renew an expired subscription
    /// (`isInBillingRetryPeriod`).
    public var isInBillingRetry: Bool?
    /// Whether the customer answered a price increase (`priceIncreaseStatus`).
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// When the billing grace period ends (`gracePeriodExpiresDate`).
    public var gracePeriodExpirationDate: Date?
    /// The offer that applies at the next renewal (`offerType`).
    public var offerType: OfferType?
    /// The id of that offer (`offerIdentifier`).
    public var offerID: String?
    /// The environment that signed it (`environment`).
    public var environment: AppStoreEnvironment?
    /// When the most recent run of continuous subscription began (`recentSubscriptionStartDate`).
    public var recentSubscriptionStartDate: Date?
    /// When the subscription renews next (`renewalDate`).
    public var renewalDate: Date?
    /// The token the app attached to the purchase (`appAccountToken`).
    public var appAccountToken: String?
    /// The win-back offers the customer may redeem, best first (`eligibleWinBackOfferIds`);
    /// empty when none.
    public var eligibleWinBackOfferIDs: [String]
    /// When the stored version was signed (`signedDate`).
    public var signedDate: Date
    /// The stored version's signed JWS, exactly as received.
    public var jwsRepresentation: String

    /// Whether the subscription renews by itself at the next renewal date.
    public var willAutoRenew: Bool { autoRenewStatus == .on }

    /// Creates a stored renewal info value.
    public init(
        originalTransactionID: String, currentProductID: String? = nil, autoRenewPreference: String? = nil,
        autoRenewStatus: AutoRenewStatus? = nil, expirationReason: ExpirationIntent? = nil,
        isInBillingRetry: Bool? = nil, priceIncreaseStatus: PriceIncreaseStatus? = nil,
        gracePeriodExpirationDate: Date? = nil, offerType: OfferType? = nil, offerID: String? = nil,
        environment: AppStoreEnvironment? = nil, recentSubscriptionStartDate: Date? = nil,
        renewalDate: Date? = nil, appAccountToken: String? = nil, eligibleWinBackOfferIDs: [String] = [],
        signedDate: Date, jwsRepresentation: String
    ) {
        self.originalTransactionID = originalTransactionID
        self.currentProductID = currentProductID
        self.autoRenewPreference = autoRenewPreference
        self.autoRenewStatus = autoRenewStatus
        self.expirationReason = expirationReason
        self.isInBillingRetry = isInBillingRetry
        self.priceIncreaseStatus = priceIncreaseStatus
        self.gracePeriodExpirationDate = gracePeriodExpirationDate
        self.offerType = offerType
        self.offerID = offerID
        self.environment = environment
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.appAccountToken = appAccountToken
        self.eligibleWinBackOfferIDs = eligibleWinBackOfferIDs
        self.signedDate = signedDate
        self.jwsRepresentation = jwsRepresentation
    }
}
