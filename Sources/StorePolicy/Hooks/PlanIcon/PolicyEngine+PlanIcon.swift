import LuaBridge

extension PolicyEngine {
    /// `plan_icon(ctx, plan)`: the icon name for subscription plan `productID`, or nil for
    /// none. Default: none.
    public func planIcon(_ context: PolicyContext, productID: String, traced: Bool = false) -> Decision<String?> {
        decide(PolicyHook.planIcon.name, context: context, traced: traced, inputs: [.string(productID)],
               fallback: { nil },
               arguments: { instance, stack throws(PolicyError) in
                   try Self.pushProduct(productID, instance: instance, stack: stack)
                   return 1
               },
               read: { _, stack, first, count throws(LuaError) -> String? in
                   if count == 0 || stack.type(at: first) == .nil { return nil }
                   guard let icon = stack.string(at: first), !icon.isEmpty, icon.utf8.count <= 128 else {
                       throw Self.badResult("expected an icon name (a non-empty string of at most 128 bytes) or nil", stack, first, count)
                   }
                   return icon
               })
    }
}
