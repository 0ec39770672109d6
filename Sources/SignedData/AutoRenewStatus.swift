/// Whether an auto-renewable subscription renews at the end of its period.
///
/// A value Apple adds later decodes and encodes unchanged; ``isKnown`` tells it apart.
public struct AutoRenewStatus: AppStoreEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: Int

    /// Creates a value from its JSON form, known or not.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `0`: Automatic renewal is off.
    public static let off = Self(rawValue: 0)

    /// `1`: Automatic renewal is on.
    public static let on = Self(rawValue: 1)

    /// Every value Apple documents, in Apple's order.
    public static let knownValues: [Self] = [
        .off,
        .on,
    ]
}
