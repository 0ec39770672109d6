/// How a subscription offer charges the customer.
///
/// A value Apple adds later decodes and encodes unchanged; ``isKnown`` tells it apart.
public struct OfferDiscountType: AppStoreEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its JSON form, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `FREE_TRIAL`: A free trial.
    public static let freeTrial = Self(rawValue: "FREE_TRIAL")

    /// `PAY_AS_YOU_GO`: A discounted price for each of several periods.
    public static let payAsYouGo = Self(rawValue: "PAY_AS_YOU_GO")

    /// `PAY_UP_FRONT`: A discounted price paid once for the whole offer period.
    public static let payUpFront = Self(rawValue: "PAY_UP_FRONT")

    /// `ONE_TIME`: A one-time charge.
    public static let oneTime = Self(rawValue: "ONE_TIME")

    /// Every value Apple documents, in Apple's order.
    public static let knownValues: [Self] = [
        .freeTrial,
        .payAsYouGo,
        .payUpFront,
        .oneTime,
    ]
}
