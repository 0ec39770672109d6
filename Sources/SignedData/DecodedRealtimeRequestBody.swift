import Foundation

/// What Apple's Retention Messaging API asks a developer's server when a subscriber opens the
/// cancel screen: the decoded `signedPayload` of a `POST` to the real-time URL. Apple's field
/// names; every field optional, as in Apple's payloads.
public struct DecodedRealtimeRequestBody: SignedPayload, Hashable {
    /// The subscription the customer is about to cancel.
    public var originalTransactionId: String?
    /// The App Store identifier of the app.
    public var appAppleId: Int64?
    /// The subscription product the customer has now.
    public var productId: String?
    /// The device's locale, such as `en_US`.
    public var userLocale: String?
    /// A UUID Apple makes for each request.
    public var requestIdentifier: String?
    /// When Apple signed the request.
    public var signedDate: Date?
    /// The environment of the request.
    public var environment: AppStoreEnvironment?

    /// Creates a request.
    public init(originalTransactionId: String? = nil, appAppleId: Int64? = nil, productId: String? = nil, userLocale: String? = nil,
                requestIdentifier: String? = nil, signedDate: Date? = nil, environment: AppStoreEnvironment? = nil) {
        self.originalTransactionId = originalTransactionId
        self.appAppleId = appAppleId
        self.productId = productId
        self.userLocale = userLocale
        self.requestIdentifier = requestIdentifier
        self.signedDate = signedDate
        self.environment = environment
    }
}
