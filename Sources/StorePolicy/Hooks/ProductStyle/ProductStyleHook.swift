import LuaBridge

extension PolicyHook {
    /// `product_style(ctx, product) -> "compact" | "regular" | "large"`: how prominently a
    /// product is shown.
    ///
    /// A request gives the product's id; `diff` asks about every product that is not a
    /// subscription.
    public static let productStyle = PolicyHook(
        name: "product_style",
        exampleRequests: [#"{"hook": "product_style", "ctx": {"customer": {"balances": {"pellet": 2}}}, "args": ["pellet.box"]}"#],
        run: { arguments throws(PolicyError) in
            let productID = try arguments.string(0, "product id")
            return arguments.engine.productStyle(arguments.context, productID: productID, traced: true).map { .string($0.rawValue) }
        },
        scenarios: { inputs in inputs.products.filter { $0.subscription == nil }.map { [.string($0.id)] } })
}
