/// The status of an auto-renewable subscription in a notification's `data.status` (Apple's `Status`).
///
/// A value Apple adds later decodes and encodes unchanged; ``isKnown`` tells it apart.
public struct AutoRenewableSubscriptionStatus: AppStoreEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: Int

    /// Creates a value from its JSON form, known or not.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `1`: The subscription is active.
    public static let active = Self(rawValue: 1)

    /// `2`: The subscription expired.
    public static let expired = Self(rawValue: 2)

    /// `3`: The subscription is in its billing-retry period.
    public static let billingRetry = Self(rawValue: 3)

    /// `4`: The subscription is in its billing grace period.
    public static let billingGracePeriod = Self(rawValue: 4)

    /// `5`: The subscription was revoked.
    public static let revoked = Self(rawValue: 5)

    /// Every value Apple documents, in Apple's order.
    public static let knownValues: [Self] = [
        .active,
        .expired,
        .billingRetry,
        .billingGracePeriod,
        .revoked,
    ]
}
