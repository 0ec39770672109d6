import LuaBridge

extension PolicyEngine {
    /// `product_style(ctx, product)`: how prominently to show `productID`. Default: `regular`.
    public func productStyle(_ context: PolicyContext, productID: String, traced: Bool = false) -> Decision<ProductViewStyle> {
        decide(PolicyHook.productStyle.name, context: context, traced: traced, inputs: [.string(productID)],
               fallback: { .regular },
               arguments: { instance, stack throws(PolicyError) in
                   try Self.pushProduct(productID, instance: instance, stack: stack)
                   return 1
               },
               read: { _, stack, first, count throws(LuaError) in
                   guard count > 0, let text = stack.string(at: first), let style = ProductViewStyle(rawValue: text) else {
                       throw Self.badResult("expected \"compact\", \"regular\" or \"large\"", stack, first, count)
                   }
                   return style
               })
    }
}
