/// Why the App Store refunded or revoked a transaction.
///
/// A value Apple adds later decodes and encodes unchanged; ``isKnown`` tells it apart.
public struct RevocationReason: AppStoreEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: Int

    /// Creates a value from its JSON form, known or not.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `0`: Refunded for another reason, such as an accidental purchase.
    public static let refundedForOtherReason = Self(rawValue: 0)

    /// `1`: Refunded because of an actual or perceived issue within the app.
    public static let refundedDueToIssue = Self(rawValue: 1)

    /// Every value Apple documents, in Apple's order.
    public static let knownValues: [Self] = [
        .refundedForOtherReason,
        .refundedDueToIssue,
    ]
}
