/// The app a notification is about, when it carries no transaction (the `appData` field;
/// Apple's `AppData`).
public struct NotificationAppData: Codable, Sendable, Hashable {
    /// The App Store identifier of the app.
    public var appAppleId: Int64?
    /// The bundle identifier of the app.
    public var bundleId: String?
    /// The server environment the notification applies to.
    public var environment: AppStoreEnvironment?
    /// The app transaction, as a compact JWS that still needs verifying.
    public var signedAppTransactionInfo: String?

    /// Creates app data; every field is optional, as in Apple's payloads.
    public init(
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        environment: AppStoreEnvironment? = nil,
        signedAppTransactionInfo: String? = nil
    ) {
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.environment = environment
        self.signedAppTransactionInfo = signedAppTransactionInfo
    }
}
