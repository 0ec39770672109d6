import LuaBridge

extension PolicyEngine {
    /// `show_merchandising(ctx, placement)`: whether to show merchandising at `placement`.
    ///
    /// Default: shown only when the subscription status is known and the customer has no
    /// active subscription, so a paying customer is never shown offers by mistake.
    public func showMerchandising(_ context: PolicyContext, placement: String, traced: Bool = false) -> Decision<Bool> {
        decide(PolicyHook.showMerchandising.name, context: context, traced: traced, inputs: [.string(placement)],
               fallback: { Self.defaultShowMerchandising(context) },
               arguments: { _, stack in stack.push(placement); return 1 },
               read: { _, stack, first, count throws(LuaError) in
                   guard count > 0, let shown = stack.bool(at: first) else {
                       throw Self.badResult("expected a boolean", stack, first, count)
                   }
                   return shown
               })
    }

    /// The default of `show_merchandising`.
    public static func defaultShowMerchandising(_ context: PolicyContext) -> Bool {
        context.customer.statusKnown && !context.customer.hasActiveSubscription
    }
}
