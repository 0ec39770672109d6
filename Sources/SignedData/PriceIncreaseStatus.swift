/// Whether the customer responded to a subscription price increase.
///
/// A value Apple adds later decodes and encodes unchanged; ``isKnown`` tells it apart.
public struct PriceIncreaseStatus: AppStoreEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: Int

    /// Creates a value from its JSON form, known or not.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `0`: The customer has not responded to a price increase that needs consent.
    public static let customerHasNotResponded = Self(rawValue: 0)

    /// `1`: The customer consented, or was notified of an increase that needed no consent.
    public static let customerConsentedOrWasNotifiedWithoutNeedingConsent = Self(rawValue: 1)

    /// Every value Apple documents, in Apple's order.
    public static let knownValues: [Self] = [
        .customerHasNotResponded,
        .customerConsentedOrWasNotifiedWithoutNeedingConsent,
    ]
}
