/// The kind of subscription offer applied to a transaction or a renewal.
///
/// A value Apple adds later decodes and encodes unchanged; ``isKnown`` tells it apart.
public struct OfferType: AppStoreEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: Int

    /// Creates a value from its JSON form, known or not.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `1`: An introductory offer.
    public static let introductoryOffer = Self(rawValue: 1)

    /// `2`: A promotional offer.
    public static let promotionalOffer = Self(rawValue: 2)

    /// `3`: An offer redeemed with an offer code.
    public static let offerCode = Self(rawValue: 3)

    /// `4`: A win-back offer for a lapsed subscriber.
    public static let winBackOffer = Self(rawValue: 4)

    /// Every value Apple documents, in Apple's order.
    public static let knownValues: [Self] = [
        .introductoryOffer,
        .promotionalOffer,
        .offerCode,
        .winBackOffer,
    ]
}
