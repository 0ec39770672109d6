import Foundation

/// A transaction signed by the App Store (`JWSTransaction`), decoded.
///
/// Property names are Apple's JSON field names, so a real App Store payload decodes unchanged;
/// fields StoreRules does not model (such as `advancedCommerceInfo`) are ignored, and every
/// property is optional because Apple's payloads omit what does not apply. Dates are carried at
/// millisecond precision; read and write them with ``SignedPayloadJSON``.
public struct JWSTransactionDecodedPayload: SignedPayload, Hashable {
    /// The transaction identifier of the original purchase.
    public var originalTransactionId: String?
    /// The unique identifier of this transaction.
    public var transactionId: String?
    /// The identifier of subscription purchase events across devices, including renewals.
    public var webOrderLineItemId: String?
    /// The bundle identifier of the app.
    public var bundleId: String?
    /// The product identifier of the in-app purchase.
    public var productId: String?
    /// The identifier of the subscription group the subscription belongs to.
    public var subscriptionGroupIdentifier: String?
    /// When the App Store charged the customer for this purchase, restore, renewal or upgrade.
    public var purchaseDate: Date?
    /// The purchase date of the original transaction.
    public var originalPurchaseDate: Date?
    /// When the subscription expires or renews.
    public var expiresDate: Date?
    /// The number of consumables bought.
    public var quantity: Int32?
    /// The kind of in-app purchase.
    public var type: TransactionProductType?
    /// The UUID the app attached to the purchase, as a lowercase UUID string.
    public var appAccountToken: String?
    /// Whether the customer bought the purchase or has it through Family Sharing.
    public var inAppOwnershipType: InAppOwnershipType?
    /// When the App Store signed this payload.
    public var signedDate: Date?
    /// Why the App Store refunded or revoked the transaction.
    public var revocationReason: RevocationReason?
    /// When the App Store refunded or revoked the transaction.
    public var revocationDate: Date?
    /// Whether the customer upgraded to another subscription, which supersedes this one.
    public var isUpgraded: Bool?
    /// The kind of subscription offer applied.
    public var offerType: OfferType?
    /// The identifier of the offer applied: a promotional offer or offer-code reference.
    public var offerIdentifier: String?
    /// The server environment that signed the transaction.
    public var environment: AppStoreEnvironment?
    /// The three-letter ISO 3166-1 code of the App Store storefront.
    public var storefront: String?
    /// Apple's identifier of the storefront.
    public var storefrontId: String?
    /// Whether the transaction is a purchase or a renewal.
    public var transactionReason: TransactionReason?
    /// The three-letter ISO 4217 currency code of the price.
    public var currency: String?
    /// The price in milli-units of the currency (9990 is 9.99).
    public var price: Int64?
    /// How the offer applied charges the customer.
    public var offerDiscountType: OfferDiscountType?
    /// The identifier of the app download transaction.
    public var appTransactionId: String?
    /// The ISO 8601 duration of the offer applied, such as `P1M`.
    public var offerPeriod: String?
    /// How the transaction was revoked.
    public var revocationType: RevocationType?
    /// The refunded share of the price, in milli-percent (100000 is all of it).
    public var revocationPercentage: Int32?
    /// The billing plan of the subscription.
    public var billingPlanType: String?

    /// Creates a transaction payload; every field is optional, as in Apple's payloads.
    public init(
        originalTransactionId: String? = nil,
        transactionId: String? = nil,
        webOrderLineItemId: String? = nil,
        bundleId: String? = nil,
        productId: String? = nil,
        subscriptionGroupIdentifier: String? = nil,
        purchaseDate: Date? = nil,
        originalPurchaseDate: Date? = nil,
        expiresDate: Date? = nil,
        quantity: Int32? = nil,
        type: TransactionProductType? = nil,
        appAccountToken: String? = nil,
        inAppOwnershipType: InAppOwnershipType? = nil,
        signedDate: Date? = nil,
        revocationReason: RevocationReason? = nil,
        revocationDate: Date? = nil,
        isUpgraded: Bool? = nil,
        offerType: OfferType? = nil,
        offerIdentifier: String? = nil,
        environment: AppStoreEnvironment? = nil,
        storefront: String? = nil,
        storefrontId: String? = nil,
        transactionReason: TransactionReason? = nil,
        currency: String? = nil,
        price: Int64? = nil,
        offerDiscountType: OfferDiscountType? = nil,
        appTransactionId: String? = nil,
        offerPeriod: String? = nil,
        revocationType: RevocationType? = nil,
        revocationPercentage: Int32? = nil,
        billingPlanType: String? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.bundleId = bundleId
        self.productId = productId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.quantity = quantity
        self.type = type
        self.appAccountToken = appAccountToken
        self.inAppOwnershipType = inAppOwnershipType
        self.signedDate = signedDate
        self.revocationReason = revocationReason
        self.revocationDate = revocationDate
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.environment = environment
        self.storefront = storefront
        self.storefrontId = storefrontId
        self.transactionReason = transactionReason
        self.currency = currency
        self.price = price
        self.offerDiscountType = offerDiscountType
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
        self.billingPlanType = billingPlanType
    }
}
