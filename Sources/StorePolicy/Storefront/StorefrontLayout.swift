import Foundation

/// What a storefront plan takes from the catalog and what never changes between plans, worked
/// out once per engine: the store's products by id, their prices as numbers for ordering, and
/// the subscription groups by name.
struct StorefrontLayout: Sendable {
    /// Every product but auto-renewable subscriptions, by id.
    let storeProducts: [PolicyProduct]
    /// Each product's price as a number (0 when it does not read as one), by id.
    let prices: [String: Decimal]
    /// The subscription groups, by name then id.
    let groups: [PolicyCatalog.Group]

    init(_ catalog: PolicyCatalog) {
        storeProducts = catalog.products.values.filter { $0.subscription == nil }.sorted { $0.id < $1.id }
        prices = catalog.products.mapValues { Decimal(string: $0.price) ?? 0 }
        groups = catalog.groups.values.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }
}
