import Foundation

/// What a storefront plan takes from the catalog and what never changes between plans, worked
/// out once per policy version: the catalog itself, the store's products by id, their order by
/// price, and each subscription group's plans with their wording.
struct StorefrontLayout: Sendable {
    /// One plan of a subscription group, as every customer's plan starts from it.
    struct Plan: Sendable {
        let product: PolicyProduct
        let subscription: PolicyProduct.Subscription
        /// "month", "3 months".
        let period: String
        /// The introductory offer in words, when there is one.
        let introductoryOffer: String?
        /// The first promotional offer in words, when there is one.
        let promotionalOffer: String?
    }

    /// A subscription group with its plans, highest level of service first.
    struct Group: Sendable {
        let group: PolicyCatalog.Group
        let plans: [Plan]
    }

    /// The catalog the plans are made from.
    let catalog: PolicyCatalog
    /// Every product but auto-renewable subscriptions, by id.
    let storeProducts: [PolicyProduct]
    /// Each store product's place when ordered by price (as a number, 0 when it does not read
    /// as one), then id: the order within each prominence of a plan's store.
    let priceRanks: [String: Int]
    /// The subscription groups, by name then id.
    let groups: [Group]

    init(_ catalog: PolicyCatalog) {
        self.catalog = catalog
        storeProducts = catalog.products.values.filter { $0.subscription == nil }.sorted { $0.id < $1.id }
        let prices = catalog.products.mapValues { Decimal(string: $0.price) ?? 0 }
        let byPrice = storeProducts.map(\.id).sorted { (prices[$0] ?? 0, $0) < (prices[$1] ?? 0, $1) }
        priceRanks = Dictionary(uniqueKeysWithValues: byPrice.enumerated().map { ($1, $0) })
        groups = catalog.groups.values.sorted { ($0.name, $0.id) < ($1.name, $1.id) }.map { group in
            Group(group: group, plans: group.products.compactMap { productID in
                guard let product = catalog.products[productID], let subscription = product.subscription else { return nil }
                return Plan(product: product, subscription: subscription, period: OfferPhrase.period(subscription.period),
                            introductoryOffer: subscription.introductoryOffer.map(OfferPhrase.describe),
                            promotionalOffer: subscription.promotionalOffers.first.map(OfferPhrase.describe))
            })
        }
    }
}
