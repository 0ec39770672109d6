import LuaBridge

extension PolicyEngine {
    /// `winback_offer(ctx, product, offers)`: which of `offerIDs`, the win-back offers of
    /// `productID` the lapsed customer may redeem (best first, as the renewal info lists them),
    /// the customer is shown; nil for none. `offers` are the catalog's offer tables, in that order.
    ///
    /// Default (no hook): the first, the offer Apple ranks best, as StoreKit's views show it.
    /// A hook that fails, or answers an id not among `offers`, is a `fallback` whose value is
    /// nil: no offer is shown on a guess.
    public func winBackOffer(_ context: PolicyContext, productID: String, offerIDs: [String],
                             traced: Bool = false) -> Decision<String?> {
        let offers = eligibleOffers(productID: productID, offerIDs: offerIDs)
        var decision = decide(
            PolicyHook.winBackOffer.name, context: context, traced: traced,
            inputs: [.string(productID), .table(LuaTable(array: offers.compactMap(\.id).map(LuaValue.string)))],
            fallback: { offers.first?.id },
            arguments: { instance, stack throws(PolicyError) in
                try Self.pushProduct(productID, instance: instance, stack: stack)
                do {
                    try instance.pushOffers(offers, onto: stack)
                } catch {
                    throw PolicyError(kind: .badRequest, reason: "cannot pass the offers: \(error)")
                }
                return 2
            },
            read: { _, stack, first, count throws(LuaError) -> String? in
                if count == 0 || stack.type(at: first) == .nil { return nil }
                guard let id = stack.string(at: first), offers.contains(where: { $0.id == id }) else {
                    let ids = offers.compactMap(\.id).map { "\"\($0)\"" }.joined(separator: ", ")
                    throw Self.badResult("expected the id of one of the offers (\(ids)) or nil", stack, first, count)
                }
                return id
            })
        if decision.failure != nil { decision.value = nil }
        return decision
    }

    /// The win-back offers of `productID` in `catalog` the customer in `context` may redeem:
    /// the product's among its group's `win_back_offers`, best first.
    func eligibleWinBackOfferIDs(_ context: PolicyContext, productID: String, in catalog: PolicyCatalog) -> [String] {
        guard let subscription = catalog.products[productID]?.subscription,
              let snapshot = context.customer.subscriptions[subscription.groupId] else { return [] }
        let offered = Set(subscription.winBackOffers.compactMap(\.id))
        return snapshot.winBackOfferIDs.filter(offered.contains)
    }

    /// The catalog's win-back offers of `productID` among `offerIDs`, in the order of `offerIDs`.
    private func eligibleOffers(productID: String, offerIDs: [String]) -> [PolicyProduct.Offer] {
        let offers = catalog.products[productID]?.subscription?.winBackOffers ?? []
        return offerIDs.compactMap { id in offers.first { $0.id == id } }
    }
}
