import Foundation

/// A transaction as an outgoing event reports it.
public struct ReportedTransaction: Sendable, Hashable, Codable {
    /// The transaction id.
    public var transactionID: String
    /// The original transaction id.
    public var originalTransactionID: String
    /// The product.
    public var productID: String
    /// The kind of product, as Apple writes it (`Consumable`, `Auto-Renewable Subscription`, …).
    public var productType: String
    /// When it was bought.
    public var purchaseDate: Date
    /// When its period ends, for a subscription.
    public var expiresDate: Date?
    /// How many were bought.
    public var quantity: Int
    /// What the customer paid, in thousandths of the currency's unit, as Apple signs it.
    public var price: Int64?
    /// The ISO 4217 currency of ``price``.
    public var currency: String?
    /// The storefront it was bought in.
    public var storefront: String?
    /// When it was refunded or revoked.
    public var revocationDate: Date?
    /// Why it was refunded, as Apple gives it (0 other, 1 an issue in the app).
    public var revocationReason: Int?
    /// Whether a family member shares it.
    public var isFamilyShared: Bool
    /// `Production` or `Sandbox`.
    public var environment: String

    /// The report of `transaction`.
    public init(_ transaction: StoredTransaction) {
        transactionID = transaction.id
        originalTransactionID = transaction.originalID
        productID = transaction.productID
        productType = transaction.productType.rawValue
        purchaseDate = transaction.purchaseDate
        expiresDate = transaction.expirationDate
        quantity = transaction.purchasedQuantity
        price = transaction.price
        currency = transaction.currency
        storefront = transaction.storefront
        revocationDate = transaction.revocationDate
        revocationReason = transaction.revocationReason?.rawValue
        isFamilyShared = transaction.ownershipType == .familyShared
        environment = transaction.environment.rawValue
    }

    private enum CodingKeys: String, CodingKey {
        case transactionID = "transaction_id", originalTransactionID = "original_transaction_id", productID = "product_id"
        case productType = "product_type", purchaseDate = "purchase_date", expiresDate = "expires_date", quantity, price
        case currency, storefront, revocationDate = "revocation_date", revocationReason = "revocation_reason"
        case isFamilyShared = "is_family_shared", environment
    }
}
