/// Why the customer asked for the refund that a consumption request is about.
///
/// A value Apple adds later decodes and encodes unchanged; ``isKnown`` tells it apart.
public struct ConsumptionRequestReason: AppStoreEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its JSON form, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `UNINTENDED_PURCHASE`: The customer did not mean to buy.
    public static let unintendedPurchase = Self(rawValue: "UNINTENDED_PURCHASE")

    /// `FULFILLMENT_ISSUE`: The customer did not receive the purchase, or could not use it.
    public static let fulfillmentIssue = Self(rawValue: "FULFILLMENT_ISSUE")

    /// `UNSATISFIED_WITH_PURCHASE`: The customer was not satisfied with the purchase.
    public static let unsatisfiedWithPurchase = Self(rawValue: "UNSATISFIED_WITH_PURCHASE")

    /// `LEGAL`: A legal reason.
    public static let legal = Self(rawValue: "LEGAL")

    /// `OTHER`: Another reason.
    public static let other = Self(rawValue: "OTHER")

    /// Every value Apple documents, in Apple's order.
    public static let knownValues: [Self] = [
        .unintendedPurchase,
        .fulfillmentIssue,
        .unsatisfiedWithPurchase,
        .legal,
        .other,
    ]
}
