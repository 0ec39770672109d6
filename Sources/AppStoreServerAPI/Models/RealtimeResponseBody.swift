/// The answer to a Retention Messaging real-time request (`RealtimeResponseBody`): at most one
/// of its fields; none asks Apple to show the default message.
public struct RealtimeResponseBody: Codable, Sendable, Equatable {
    /// A message alone.
    public var message: Message?
    /// A message suggesting another plan of the subscription's group.
    public var alternateProduct: AlternateProduct?
    /// A message with a promotional offer.
    public var promotionalOffer: PromotionalOffer?

    /// A message alone: its identifier.
    public struct Message: Codable, Sendable, Equatable {
        /// The message's UUID, as uploaded.
        public var messageIdentifier: String

        /// A message.
        public init(messageIdentifier: String) {
            self.messageIdentifier = messageIdentifier
        }
    }

    /// A switch-plan message.
    public struct AlternateProduct: Codable, Sendable, Equatable {
        /// The message's UUID, as uploaded.
        public var messageIdentifier: String
        /// The plan suggested, of the same subscription group.
        public var productId: String

        /// A switch-plan message.
        public init(messageIdentifier: String, productId: String) {
            self.messageIdentifier = messageIdentifier
            self.productId = productId
        }
    }

    /// A promotional offer message.
    public struct PromotionalOffer: Codable, Sendable, Equatable {
        /// The message's UUID, as uploaded.
        public var messageIdentifier: String
        /// The offer signed as ``PromotionalOfferSignatureIssuer`` signs it.
        public var promotionalOfferSignatureV2: String

        /// A promotional offer message.
        public init(messageIdentifier: String, promotionalOfferSignatureV2: String) {
            self.messageIdentifier = messageIdentifier
            self.promotionalOfferSignatureV2 = promotionalOfferSignatureV2
        }
    }

    /// Apple's default message: no field.
    public static let defaultMessage = RealtimeResponseBody()

    /// An answer; give at most one field.
    public init(message: Message? = nil, alternateProduct: AlternateProduct? = nil, promotionalOffer: PromotionalOffer? = nil) {
        self.message = message
        self.alternateProduct = alternateProduct
        self.promotionalOffer = promotionalOffer
    }
}
