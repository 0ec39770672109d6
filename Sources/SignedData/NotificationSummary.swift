/// The outcome of a renewal-date extension for all subscribers, in a `RENEWAL_EXTENSION`
/// notification with the `SUMMARY` subtype (the `summary` field; Apple's `Summary`).
public struct NotificationSummary: Codable, Sendable, Hashable {
    /// The server environment the notification applies to.
    public var environment: AppStoreEnvironment?
    /// The App Store identifier of the app.
    public var appAppleId: Int64?
    /// The bundle identifier of the app.
    public var bundleId: String?
    /// The product whose subscriptions were extended.
    public var productId: String?
    /// The identifier of the extension request.
    public var requestIdentifier: String?
    /// The three-letter storefront codes the extension applied to.
    public var storefrontCountryCodes: [String]?
    /// How many subscriptions were extended.
    public var succeededCount: Int64?
    /// How many subscriptions could not be extended.
    public var failedCount: Int64?

    /// Creates a summary; every field is optional, as in Apple's payloads.
    public init(
        environment: AppStoreEnvironment? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        productId: String? = nil,
        requestIdentifier: String? = nil,
        storefrontCountryCodes: [String]? = nil,
        succeededCount: Int64? = nil,
        failedCount: Int64? = nil
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.productId = productId
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }
}
