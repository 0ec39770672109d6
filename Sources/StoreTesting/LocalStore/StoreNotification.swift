import StoreCore

/// An App Store Server Notification V2 in the store's outbox: the signed payload a server
/// receives, verified and decoded, and the customer it concerns.
public struct StoreNotification: Sendable, Hashable {
    /// The notification's place in the outbox, from 1, in the order the store sent them.
    public let sequence: Int
    /// The customer the notification concerns (servers find it through the transaction; the
    /// store keeps it so the outbox can be replayed into any ledger).
    public let customerID: String
    /// The notification, verified and decoded; its `signedPayload` is the body of the request
    /// the App Store would post.
    public let signed: VerifiedSignedData<ResponseBodyV2DecodedPayload>

    /// Creates an outbox entry.
    public init(sequence: Int, customerID: String, signed: VerifiedSignedData<ResponseBodyV2DecodedPayload>) {
        self.sequence = sequence
        self.customerID = customerID
        self.signed = signed
    }

    /// The `signedPayload` of the notification.
    public var signedPayload: String { signed.jwsRepresentation }
    /// The decoded notification.
    public var payload: ResponseBodyV2DecodedPayload { signed.payload }
    /// The notification's type.
    public var notificationType: NotificationTypeV2? { signed.payload.notificationType }
    /// The notification's subtype, when it has one.
    public var subtype: NotificationSubtype? { signed.payload.subtype }
}
