import Foundation

/// An app transaction signed by the App Store (`AppTransaction`), decoded: the customer's
/// purchase of the app itself.
///
/// Property names are Apple's JSON field names; fields StoreRules does not model are ignored.
/// Its signed date is `receiptCreationDate`, as in Apple's verifier.
public struct JWSAppTransactionDecodedPayload: SignedPayload, Hashable {
    /// The server environment that signed it (`receiptType`).
    public var receiptType: AppStoreEnvironment?
    /// The App Store identifier of the app.
    public var appAppleId: Int64?
    /// The bundle identifier of the app.
    public var bundleId: String?
    /// The app version the customer has.
    public var applicationVersion: String?
    /// The version's external identifier.
    public var versionExternalIdentifier: Int64?
    /// When the App Store created this app transaction.
    public var receiptCreationDate: Date?
    /// When the customer first bought or downloaded the app.
    public var originalPurchaseDate: Date?
    /// The app version the customer first bought or downloaded.
    public var originalApplicationVersion: String?
    /// When the customer pre-ordered the app, if they did.
    public var preorderDate: Date?
    /// The app transaction's unique id.
    public var appTransactionId: String?
    /// The platform the customer first bought the app on (`iOS`, `macOS`, …).
    public var originalPlatform: String?

    /// The date the signing chain must be valid at.
    public var signedDate: Date? { receiptCreationDate }

    /// Creates an app transaction; every field is optional, as in Apple's payloads.
    public init(receiptType: AppStoreEnvironment? = nil, appAppleId: Int64? = nil, bundleId: String? = nil, applicationVersion: String? = nil,
                versionExternalIdentifier: Int64? = nil, receiptCreationDate: Date? = nil, originalPurchaseDate: Date? = nil,
                originalApplicationVersion: String? = nil, preorderDate: Date? = nil, appTransactionId: String? = nil,
                originalPlatform: String? = nil) {
        self.receiptType = receiptType
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.versionExternalIdentifier = versionExternalIdentifier
        self.receiptCreationDate = receiptCreationDate
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.preorderDate = preorderDate
        self.appTransactionId = appTransactionId
        self.originalPlatform = originalPlatform
    }

    private enum CodingKeys: String, CodingKey {
        case receiptType, appAppleId, bundleId, applicationVersion, versionExternalIdentifier, receiptCreationDate, originalPurchaseDate
        case originalApplicationVersion, preorderDate, appTransactionId, originalPlatform
    }
}
