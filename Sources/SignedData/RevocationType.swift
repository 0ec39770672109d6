/// How a transaction was revoked.
///
/// A value Apple adds later decodes and encodes unchanged; ``isKnown`` tells it apart.
public struct RevocationType: AppStoreEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its JSON form, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `REFUND_FULL`: A full refund.
    public static let refundFull = Self(rawValue: "REFUND_FULL")

    /// `REFUND_PRORATED`: A prorated refund.
    public static let refundProrated = Self(rawValue: "REFUND_PRORATED")

    /// `FAMILY_REVOKE`: Family Sharing access was removed.
    public static let familyRevoke = Self(rawValue: "FAMILY_REVOKE")

    /// Every value Apple documents, in Apple's order.
    public static let knownValues: [Self] = [
        .refundFull,
        .refundProrated,
        .familyRevoke,
    ]
}
