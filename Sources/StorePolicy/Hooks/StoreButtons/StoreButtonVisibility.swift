/// Whether a store button shows, as StoreKit's `Visibility` names it.
public enum StoreButtonVisibility: String, Sendable, Codable, CaseIterable {
    /// The view decides.
    case automatic
    /// Always shown.
    case visible
    /// Never shown.
    case hidden
}
