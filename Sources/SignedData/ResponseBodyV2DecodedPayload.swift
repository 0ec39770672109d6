import Foundation

/// An App Store Server Notification V2 (the `signedPayload` of its body), decoded.
///
/// A notification carries one of ``data``, ``summary``, ``externalPurchaseToken`` or
/// ``appData``. The signed transaction and renewal info inside ``data`` are compact JWS
/// strings that ``SignedDataVerifier/verifyAndDecodeNotification(_:)`` does not verify, as in
/// Apple's library: verify each one on its own.
public struct ResponseBodyV2DecodedPayload: SignedPayload, Hashable {
    /// The event the notification reports.
    public var notificationType: NotificationTypeV2?
    /// The detail of the event, when it has one.
    public var subtype: NotificationSubtype?
    /// The unique identifier of the notification; a retried delivery keeps it.
    public var notificationUUID: String?
    /// The app, environment and signed payloads the notification is about.
    public var data: NotificationData?
    /// The version of the notification format, such as `2.0`.
    public var version: String?
    /// When the App Store signed the notification.
    public var signedDate: Date?
    /// The outcome of a renewal-date extension for all subscribers.
    public var summary: NotificationSummary?
    /// The external purchase token the notification is about.
    public var externalPurchaseToken: ExternalPurchaseToken?
    /// The app the notification is about, when it carries no transaction.
    public var appData: NotificationAppData?

    /// Creates a notification payload; every field is optional, as in Apple's payloads.
    public init(
        notificationType: NotificationTypeV2? = nil,
        subtype: NotificationSubtype? = nil,
        notificationUUID: String? = nil,
        data: NotificationData? = nil,
        version: String? = nil,
        signedDate: Date? = nil,
        summary: NotificationSummary? = nil,
        externalPurchaseToken: ExternalPurchaseToken? = nil,
        appData: NotificationAppData? = nil
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.data = data
        self.version = version
        self.signedDate = signedDate
        self.summary = summary
        self.externalPurchaseToken = externalPurchaseToken
        self.appData = appData
    }
}
