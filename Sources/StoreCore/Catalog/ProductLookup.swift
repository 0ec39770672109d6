/// The result of ``Catalog/products(for:)``: the products found and the identifiers that are not
/// in the catalog, both in request order.
public struct ProductLookup: Sendable, Equatable {
    /// The products found.
    public let products: [Product]
    /// The requested identifiers that name no product.
    public let unavailableIdentifiers: [String]

    /// Creates a lookup result.
    public init(products: [Product], unavailableIdentifiers: [String]) {
        self.products = products
        self.unavailableIdentifiers = unavailableIdentifiers
    }
}
