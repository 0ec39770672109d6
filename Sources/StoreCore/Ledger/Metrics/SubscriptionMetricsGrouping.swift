/// What subscription metrics may be counted by besides the whole ledger: each transaction's
/// product, or the storefront it was bought in.
public enum SubscriptionMetricsGrouping: String, Sendable, Hashable, CaseIterable, Encodable {
    /// Each transaction's product id.
    case product
    /// The three-letter code of the storefront each transaction was bought in (none for a
    /// transaction whose payload does not say).
    case storefront
}
