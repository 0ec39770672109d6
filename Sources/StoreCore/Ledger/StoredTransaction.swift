import Foundation
import SignedData

/// A transaction as the ``Ledger`` stores it: the verbatim signed JWS, the decoded fields that
/// the ledger and the policy read, the customer it belongs to, and its grant state.
///
/// Names follow StoreKit 2's `Transaction`. The decoded fields are those of the newest
/// version received (by `signedDate`); every version is kept in the transaction's history
/// (``Ledger/versions(ofTransaction:)``).
public struct StoredTransaction: Hashable, Sendable, Codable {
    /// The transaction's unique id (`transactionId`).
    public var id: String
    /// The id of the original purchase this transaction renews or restores
    /// (`originalTransactionId`).
    public var originalID: String
    /// The customer the transaction belongs to.
    public var customerID: String
    /// The product bought (`productId`).
    public var productID: String
    /// The kind of product (`type`).
    public var productType: TransactionProductType
    /// The subscription group of a subscription (`subscriptionGroupIdentifier`).
    public var subscriptionGroupID: String?
    /// When the customer was charged (`purchaseDate`).
    public var purchaseDate: Date
    /// When the original purchase was made (`originalPurchaseDate`).
    public var originalPurchaseDate: Date?
    /// When a subscription expires or renews (`expiresDate`).
    public var expirationDate: Date?
    /// How many were bought (`quantity`, at least 1).
    public var purchasedQuantity: Int
    /// When the App Store refunded or revoked the transaction (`revocationDate`).
    public var revocationDate: Date?
    /// Why it was refunded or revoked (`revocationReason`).
    public var revocationReason: RevocationReason?
    /// Whether the customer upgraded to a higher subscription (`isUpgraded`).
    public var isUpgraded: Bool
    /// Bought or shared through Family Sharing (`inAppOwnershipType`).
    public var ownershipType: InAppOwnershipType?
    /// The subscription offer applied (`offerType`).
    public var offerType: OfferType?
    /// The id of the offer applied (`offerIdentifier`).
    public var offerID: String?
    /// What the customer paid, in milli-units of the currency (`price`): 0 for a free trial;
    /// `nil` when the payload does not say (Apple's payloads before 2023).
    public var price: Int64?
    /// The ISO 4217 code of the price's currency (`currency`), such as `USD`; `nil` when the
    /// payload does not say.
    public var currency: String?
    /// The kind of discount of the offer applied (`offerDiscountType`): a free trial, pay as you
    /// go or pay up front; `nil` without an offer or when the payload does not say.
    public var offerDiscountType: OfferDiscountType?
    /// The three-letter ISO 3166-1 code of the App Store storefront it was bought in
    /// (`storefront`); `nil` when the payload does not say.
    public var storefront: String?
    /// The token the app attached to the purchase (`appAccountToken`).
    public var appAccountToken: String?
    /// The App Store environment that signed it (`environment`).
    public var environment: AppStoreEnvironment
    /// When the stored version was signed (`signedDate`).
    public var signedDate: Date
    /// The stored version's signed JWS, exactly as received.
    public var jwsRepresentation: String
    /// Whether the transaction is finished, and if not, why.
    public var grantState: GrantState

    /// Whether the App Store refunded or revoked the transaction.
    public var isRevoked: Bool { revocationDate != nil }

    /// Whether the transaction is finished: its grants (possibly none) are durable.
    public var isFinished: Bool { grantState.isFinished }

    /// Creates a stored transaction value.
    public init(
        id: String, originalID: String, customerID: String, productID: String,
        productType: TransactionProductType, subscriptionGroupID: String? = nil,
        purchaseDate: Date, originalPurchaseDate: Date? = nil, expirationDate: Date? = nil,
        purchasedQuantity: Int = 1, revocationDate: Date? = nil, revocationReason: RevocationReason? = nil,
        isUpgraded: Bool = false, ownershipType: InAppOwnershipType? = nil, offerType: OfferType? = nil,
        offerID: String? = nil, price: Int64? = nil, currency: String? = nil,
        offerDiscountType: OfferDiscountType? = nil, storefront: String? = nil, appAccountToken: String? = nil,
        environment: AppStoreEnvironment,
        signedDate: Date, jwsRepresentation: String, grantState: GrantState
    ) {
        self.id = id
        self.originalID = originalID
        self.customerID = customerID
        self.productID = productID
        self.productType = productType
        self.subscriptionGroupID = subscriptionGroupID
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expirationDate = expirationDate
        self.purchasedQuantity = purchasedQuantity
        self.revocationDate = revocationDate
        self.revocationReason = revocationReason
        self.isUpgraded = isUpgraded
        self.ownershipType = ownershipType
        self.offerType = offerType
        self.offerID = offerID
        self.price = price
        self.currency = currency
        self.offerDiscountType = offerDiscountType
        self.storefront = storefront
        self.appAccountToken = appAccountToken
        self.environment = environment
        self.signedDate = signedDate
        self.jwsRepresentation = jwsRepresentation
        self.grantState = grantState
    }
}
