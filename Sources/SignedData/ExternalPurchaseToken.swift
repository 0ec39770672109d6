import Foundation

/// An external purchase token, in an `EXTERNAL_PURCHASE_TOKEN` notification (the
/// `externalPurchaseToken` field).
public struct ExternalPurchaseToken: Codable, Sendable, Hashable {
    /// The identifier of the token. A sandbox token's identifier starts with `SANDBOX`.
    public var externalPurchaseId: String?
    /// When the system created the token.
    public var tokenCreationDate: Date?
    /// The App Store identifier of the app.
    public var appAppleId: Int64?
    /// The bundle identifier of the app.
    public var bundleId: String?
    /// The kind of token, such as `ACQUISITION`.
    public var tokenType: String?

    /// Creates a token; every field is optional, as in Apple's payloads.
    public init(
        externalPurchaseId: String? = nil,
        tokenCreationDate: Date? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        tokenType: String? = nil
    ) {
        self.externalPurchaseId = externalPurchaseId
        self.tokenCreationDate = tokenCreationDate
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.tokenType = tokenType
    }

    /// The environment the token belongs to, derived as Apple's library does: sandbox when
    /// the identifier starts with `SANDBOX`, production otherwise.
    public var environment: AppStoreEnvironment {
        externalPurchaseId?.hasPrefix("SANDBOX") == true ? .sandbox : .production
    }
}
