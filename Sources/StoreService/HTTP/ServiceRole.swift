/// What an API key may do.
///
/// The roles do not nest: an `admin` key cannot call the app's routes, nor an `app` key the
/// administration routes, so each caller holds only the key it needs.
public enum ServiceRole: String, Sendable, CaseIterable {
    /// The app's backend: customers, transactions, events and decisions.
    case app
    /// Operations: reloads, retries, the policy, metrics.
    case admin
}
