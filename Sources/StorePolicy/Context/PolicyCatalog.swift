import StoreCore

/// The catalog as policies see it: `ctx.catalog` in Lua, with products and groups by id.
public struct PolicyCatalog: Sendable, Equatable, Codable {
    /// Every product by id.
    public var products: [String: PolicyProduct]
    /// Every subscription group by id.
    public var groups: [String: Group]

    /// A subscription group as policies see it.
    public struct Group: Sendable, Equatable, Codable {
        /// The group id.
        public var id: String
        /// The group's display name.
        public var name: String
        /// The group's subscriptions' ids, highest level of service (level 1) first.
        public var products: [String]
    }

    /// An empty catalog, for policies run without a `.storekit` file.
    public static let empty = PolicyCatalog(products: [:], groups: [:])

    /// Creates a catalog view.
    public init(products: [String: PolicyProduct], groups: [String: Group]) {
        self.products = products
        self.groups = groups
    }

    /// The policy view of a loaded catalog.
    public init(_ catalog: Catalog) {
        var products: [String: PolicyProduct] = [:]
        for product in catalog.products {
            products[product.id] = PolicyProduct(product)
        }
        var groups: [String: Group] = [:]
        for group in catalog.subscriptionGroups {
            let ordered = group.subscriptions.sorted {
                ($0.subscription?.groupLevel ?? 0, $0.id) < ($1.subscription?.groupLevel ?? 0, $1.id)
            }
            groups[group.id] = Group(id: group.id, name: group.displayName, products: ordered.map(\.id))
        }
        self.init(products: products, groups: groups)
    }
}
