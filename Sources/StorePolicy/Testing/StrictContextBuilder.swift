import LuaBridge

/// Builds `ctx` tables for tools that hand one to Lua themselves (the REPL's `ctx`), strict as
/// every other `ctx` is: reading a field that `ctx`, `ctx.customer` or a subscription entry does
/// not have raises the error hooks get (`ctx.customer has no field 'subscription' (did you mean
/// 'subscriptions'?)`), through the same metatables `context{...}` uses in the state.
package struct StrictContextBuilder {
    let strict: StrictContext
    /// The metatables of `ctx` and of `ctx.customer`.
    let context: LuaReference
    let customer: LuaReference

    /// Pushes `context` as a plain table with `catalog` as its `ctx.catalog`, and makes it,
    /// its customer and each subscription entry strict.
    package func push(_ context: PolicyContext, catalog: LuaReference, onto stack: LuaStack, encoder: LuaEncoder) throws(LuaError) {
        try encoder.push(context, onto: stack)
        let table = stack.top
        stack.push(catalog)
        stack.setField("catalog", of: table)
        if stack.pushField("experiments", of: table) == .nil {
            stack.pushTable()
            stack.setField("experiments", of: table)
        }
        stack.setTop(table)
        if stack.pushField("customer", of: table) == .table {
            let customer = stack.top
            if stack.pushField("subscriptions", of: customer) == .table {
                stack.forEachPair(of: stack.top) { _, entry in
                    stack.setMetatable(strict.subscription, of: entry)
                }
            }
            stack.setMetatable(self.customer, of: customer)
        }
        stack.setTop(table)
        stack.setMetatable(self.context, of: table)
    }
}
