import StoreCore
import StorePolicy

extension PolicyContext {
    /// The context the policy decides in for the customer `state` describes, at the state's
    /// date: the catalog's storefront and locale, and the subscriptions' group levels from
    /// `engine`'s catalog where the ledger lacks them.
    public init(state: CustomerState, catalog: Catalog?, engine: PolicyEngine?, environment: AppStoreEnvironment) {
        var customer = CustomerContext(state)
        if let engine { customer.fillMissingGroupLevels(from: engine.catalog) }
        self.init(now: state.date, storefront: catalog?.storefront.countryCode ?? "USA",
                  locale: catalog?.localeIdentifier ?? "en_US", environment: PolicyContext.Environment(environment),
                  customer: customer)
    }
}
