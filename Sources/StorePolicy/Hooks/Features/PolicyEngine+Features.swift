import LuaBridge

extension PolicyEngine {
    /// `features(ctx)`: the features unlocked for the customer.
    ///
    /// Default: the product ids the customer is entitled to, so a paying customer keeps what
    /// was bought even when the hook fails.
    public func features(_ context: PolicyContext, traced: Bool = false) -> Decision<[String]> {
        decide(PolicyHook.features.name, context: context, traced: traced, inputs: [],
               fallback: { context.customer.entitlements },
               arguments: { _, _ in 0 },
               read: { _, stack, first, count throws(LuaError) in
                   try Self.readList(stack, first, count, what: "feature name") { $0.isEmpty ? nil : $0 }
               })
    }
}
