/// Whether the customer bought the purchase or has it through Family Sharing.
///
/// A value Apple adds later decodes and encodes unchanged; ``isKnown`` tells it apart.
public struct InAppOwnershipType: AppStoreEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its JSON form, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `FAMILY_SHARED`: A family member bought it and shares it with the customer.
    public static let familyShared = Self(rawValue: "FAMILY_SHARED")

    /// `PURCHASED`: The customer bought it.
    public static let purchased = Self(rawValue: "PURCHASED")

    /// Every value Apple documents, in Apple's order.
    public static let knownValues: [Self] = [
        .familyShared,
        .purchased,
    ]
}
