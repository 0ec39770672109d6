import LuaBridge

extension PolicyHook {
    /// `grant(ctx, tx, product) -> { { item = string, amount = integer }, ... }`: what a
    /// purchase grants.
    ///
    /// A request gives the transaction and, optionally, the product's id (the transaction's
    /// own when left out); `diff` asks about each consumable bought once and five times.
    public static let grant = PolicyHook(
        name: "grant",
        exampleRequests: [#"{"hook": "grant", "args": [{"transactionId": "2000000000000001", "productId": "pellet.box", "quantity": 2}, "pellet.box"]}"#],
        run: { arguments throws(PolicyError) in
            let transaction = try arguments.transaction(at: 0)
            let productID = try arguments.string(1, "product id", default: transaction.productId ?? "")
            guard !productID.isEmpty else {
                throw arguments.refusal("grant needs a product: the transaction's productId, or a second argument")
            }
            return try arguments.engine.grant(arguments.context, transaction: transaction, product: productID, traced: true)
                .map(HookResult.grants)
        },
        scenarios: { inputs in
            inputs.products.filter { $0.type == "consumable" }.flatMap { product in
                [1, 5].map { [HookScenarioInputs.transaction(product.id, quantity: $0, at: inputs.now)] }
            }
        })
}
