/// How prominently a product is shown, as StoreKit's `ProductViewStyle` names it.
public enum ProductViewStyle: String, Sendable, Codable, CaseIterable {
    /// Takes less space.
    case compact
    /// The standard presentation.
    case regular
    /// A prominent presentation.
    case large
}
