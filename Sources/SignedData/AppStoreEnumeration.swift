/// A value of one of Apple's App Store enumerations that keeps values it does not know.
///
/// Apple adds values to these enumerations over time. Like Apple's own server library, which
/// keeps a raw twin of every enumerated field, StoreRules models each enumeration as a struct
/// around its raw JSON value, with a static constant for every value Apple documents. A value
/// published after this code was written decodes, compares and encodes unchanged.
///
/// ```swift
/// switch transaction.type {
/// case .autoRenewableSubscription?: …
/// case let other?: print("unknown kind", other.rawValue)
/// case nil: …
/// }
/// ```
public protocol AppStoreEnumeration: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible
where RawValue: Hashable & Sendable & Codable {
    /// Creates a value from its JSON form, whether or not Apple documents it.
    init(rawValue: RawValue)

    /// Every value Apple documents, in Apple's order.
    static var knownValues: [Self] { get }
}

extension AppStoreEnumeration {
    /// Whether Apple documents this value.
    public var isKnown: Bool { Self.knownValues.contains(self) }

    /// The raw JSON value, as text.
    public var description: String { "\(rawValue)" }
}
