import LuaBridge

extension PolicyHook {
    /// `plan_icon(ctx, plan) -> string | nil`: the icon for a subscription plan.
    ///
    /// A request gives the plan's product id; `diff` asks about every product.
    public static let planIcon = PolicyHook(
        name: "plan_icon",
        exampleRequests: [#"{"hook": "plan_icon", "args": ["pass.premium"]}"#],
        run: { arguments throws(PolicyError) in
            let productID = try arguments.string(0, "product id")
            return arguments.engine.planIcon(arguments.context, productID: productID, traced: true).map { $0.map(HookResult.string) ?? .null }
        },
        scenarios: { inputs in inputs.products.map { [.string($0.id)] } })
}
