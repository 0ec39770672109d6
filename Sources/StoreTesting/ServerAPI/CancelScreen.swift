import AppStoreServerAPI
import StoreCore

/// What a subscriber sees on the cancel screen after the local store asked the developer's
/// server, as Apple's Retention Messaging shows it: the request sent, the server's answer, and
/// the message shown.
public struct CancelScreen: Sendable {
    /// What the customer is shown.
    public enum Shown: Sendable, Equatable {
        /// Apple's default message, and why the server's answer was not used (nil when the
        /// server asked for it).
        case defaultMessage(reason: String?)
        /// One of the developer's messages.
        case message(id: String)
        /// A message suggesting another plan of the group.
        case alternateProduct(messageID: String, productID: String)
        /// A message with a promotional offer whose signature verified.
        case promotionalOffer(messageID: String, offerID: String, keyID: String)
    }

    /// The request the store signed and sent.
    public let request: DecodedRealtimeRequestBody
    /// The request as it was sent: its `signedPayload`.
    public let signedPayload: String
    /// The HTTP status the server answered, or nil when it could not be reached.
    public let status: Int?
    /// The server's answer as it was decoded, when it was one.
    public let answer: RealtimeResponseBody?
    /// What the customer is shown.
    public let shown: Shown
}
