import Foundation

/// The key Xcode generated for signing promotional offers in local testing (`subscriptionOffersKeyPair`).
public struct SubscriptionOffersKeyPair: Sendable, Equatable {
    /// The key identifier that signed offers name.
    public let id: String
    /// The private key: a PKCS#8 DER-encoded EC P-256 key.
    public let privateKey: Data

    /// Creates a key pair.
    public init(id: String, privateKey: Data) {
        self.id = id
        self.privateKey = privateKey
    }
}
