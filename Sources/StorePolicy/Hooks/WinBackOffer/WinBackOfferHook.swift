import LuaBridge

extension PolicyHook {
    /// `winback_offer(ctx, product, offers) -> string | nil`: which eligible win-back offer a
    /// lapsed subscriber is shown.
    ///
    /// A request gives the product's id and the eligible offers (ids, or offer tables with an
    /// `id`; those of the context's `win_back_offers` when left out); `diff` asks about each
    /// product with all its win-back offers and with each alone.
    public static let winBackOffer = PolicyHook(
        name: "winback_offer",
        exampleRequests: [
            #"{"hook": "winback_offer", "ctx": {"customer": {"status_known": true, "subscriptions": {"6F3A93AB": {"product_id": "pass.premium", "state": "expired", "win_back_offers": ["premium.welcome.back"], "paid_months": 3.5}}}}, "args": ["pass.premium", ["premium.welcome.back"]]}"#,
        ],
        run: { arguments throws(PolicyError) in
            let productID = try arguments.string(0, "product id")
            let offerIDs = try arguments.winBackOfferIDs(at: 1, productID: productID)
            return arguments.engine.winBackOffer(arguments.context, productID: productID, offerIDs: offerIDs, traced: true)
                .map { $0.map(HookResult.string) ?? .null }
        },
        scenarios: { inputs in
            inputs.products.flatMap { product -> [[LuaValue]] in
                let ids = product.subscription?.winBackOffers.compactMap(\.id) ?? []
                let lists = ids.count > 1 ? [ids] + ids.map { [$0] } : (ids.isEmpty ? [] : [ids])
                return lists.map { [.string(product.id), .table(LuaTable(array: $0.map(LuaValue.string)))] }
            }
        })
}

extension HookArguments {
    /// The eligible win-back offers at `index`: a list of offer ids, or of offer tables with an
    /// `id`, each a win-back offer of `productID`; absent, the product's offers among the
    /// context's `win_back_offers` for its group, as the storefront asks.
    func winBackOfferIDs(at index: Int, productID: String) throws(PolicyError) -> [String] {
        let catalog = engine.catalog
        guard let subscription = catalog.products[productID]?.subscription else {
            throw refusal("'\(productID)' is not an auto-renewable subscription of the catalog")
        }
        let offered = subscription.winBackOffers.compactMap(\.id)
        guard index < values.count else { return engine.eligibleWinBackOfferIDs(context, productID: productID, in: catalog) }
        let reason = "argument \(index + 1) must be the eligible offers: a list of offer ids, or of offers with an id"
        guard case .table(let table) = values[index], table.hash.isEmpty else { throw refusal(reason) }
        var ids: [String] = []
        for item in table.array {
            let id: String
            switch item {
            case .string(let text): id = text
            case .table(let offer):
                guard case .string(let text)? = offer.hash[.string("id")] else { throw refusal(reason) }
                id = text
            default: throw refusal(reason)
            }
            guard offered.contains(id) else {
                let known = offered.isEmpty ? "it has none" : "its offers: " + offered.joined(separator: ", ")
                throw refusal("'\(id)' is not a win-back offer of '\(productID)' (\(known))")
            }
            ids.append(id)
        }
        return ids
    }
}
