/// Why an auto-renewable subscription expired.
///
/// A value Apple adds later decodes and encodes unchanged; ``isKnown`` tells it apart.
public struct ExpirationIntent: AppStoreEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: Int

    /// Creates a value from its JSON form, known or not.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `1`: The customer turned off automatic renewal.
    public static let customerCancelled = Self(rawValue: 1)

    /// `2`: The App Store could not charge the customer.
    public static let billingError = Self(rawValue: 2)

    /// `3`: The customer did not consent to a price increase that needed consent.
    public static let customerDidNotConsentToPriceIncrease = Self(rawValue: 3)

    /// `4`: The product was not available for purchase at renewal time.
    public static let productNotAvailable = Self(rawValue: 4)

    /// `5`: Another reason.
    public static let other = Self(rawValue: 5)

    /// Every value Apple documents, in Apple's order.
    public static let knownValues: [Self] = [
        .customerCancelled,
        .billingError,
        .customerDidNotConsentToPriceIncrease,
        .productNotAvailable,
        .other,
    ]
}
