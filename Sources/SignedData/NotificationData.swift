/// The app, environment and signed payloads of an App Store Server Notification V2 (the
/// `data` field; Apple's `NotificationData`).
public struct NotificationData: Codable, Sendable, Hashable {
    /// The server environment the notification applies to.
    public var environment: AppStoreEnvironment?
    /// The App Store identifier of the app.
    public var appAppleId: Int64?
    /// The bundle identifier of the app.
    public var bundleId: String?
    /// The build version of the app.
    public var bundleVersion: String?
    /// The transaction the notification is about, as a compact JWS that still needs verifying.
    public var signedTransactionInfo: String?
    /// The subscription renewal information, as a compact JWS that still needs verifying.
    public var signedRenewalInfo: String?
    /// The status of the auto-renewable subscription as of the notification's `signedDate`.
    public var status: AutoRenewableSubscriptionStatus?
    /// Why the customer asked for a refund, in a `CONSUMPTION_REQUEST` notification.
    public var consumptionRequestReason: ConsumptionRequestReason?

    /// Creates notification data; every field is optional, as in Apple's payloads.
    public init(
        environment: AppStoreEnvironment? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        bundleVersion: String? = nil,
        signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil,
        status: AutoRenewableSubscriptionStatus? = nil,
        consumptionRequestReason: ConsumptionRequestReason? = nil
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.bundleVersion = bundleVersion
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
        self.status = status
        self.consumptionRequestReason = consumptionRequestReason
    }
}
