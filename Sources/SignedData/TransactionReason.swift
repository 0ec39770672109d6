/// Why a transaction exists: a purchase by the customer, or a renewal by the App Store.
///
/// A value Apple adds later decodes and encodes unchanged; ``isKnown`` tells it apart.
public struct TransactionReason: AppStoreEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its JSON form, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `PURCHASE`: The customer bought the product, or upgraded or crossgraded to it.
    public static let purchase = Self(rawValue: "PURCHASE")

    /// `RENEWAL`: The App Store renewed an auto-renewable subscription.
    public static let renewal = Self(rawValue: "RENEWAL")

    /// Every value Apple documents, in Apple's order.
    public static let knownValues: [Self] = [
        .purchase,
        .renewal,
    ]
}
