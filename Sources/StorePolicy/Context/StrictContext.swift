import LuaBridge
import StoreCore

/// The metatables that make `ctx`, `ctx.customer`, each subscription entry and each catalog
/// product (with its `subscription`) and `grant`'s transaction strict: reading
/// a field they do not have raises an error naming it and the nearest field they do have
/// (`ctx.customer has no field 'subscription' (did you mean 'subscriptions'?)`), while a known
/// field left out (an `expiration_date` a subscription has none of) reads as nil.
///
/// Only absent keys reach a metatable, so reading a field that is there costs nothing more.
/// The tables keyed by data (`subscriptions` by group, `balances`, `attributes`, `events`)
/// stay open, `rawget` still reads without the check, and the metatables are locked
/// (`getmetatable` gives `false`), so no policy can change them for a later call.
struct StrictContext {
    let context: LuaReference
    let customer: LuaReference
    let subscription: LuaReference
    let product: LuaReference
    let productSubscription: LuaReference
    let transaction: LuaReference

    /// The fields of each strict table, as the host pushes them.
    static let contextFields = ["now", "storefront", "locale", "environment", "catalog", "customer"]
    static let customerFields = ["id", "seed", "status_known", "entitlements", "subscriptions", "balances", "attributes", "events"]
    static let subscriptionFields = ["product_id", "group_level", "state", "will_auto_renew", "expiration_date", "intro_eligible"]
    static let productFields = ["id", "type", "display_name", "description", "price", "display_price", "is_family_shareable", "subscription"]
    static let productSubscriptionFields = ["group_id", "group_name", "group_level", "period", "introductory_offer", "promotional_offers"]
    /// A transaction as `grant` receives it: every field of Apple's payload, set or not.
    static let transactionFields = LuaEncoder.luaKeys(ofPropertiesOf: JWSTransactionDecodedPayload())

    /// Makes the metatables in `state`, once per state.
    init(in state: LuaState) throws(LuaError) {
        // The hint comes from the host's NearestName, as every "did you mean" does.
        let nearest = state.functionReference { stack throws(LuaError) in
            guard stack.type(at: 1) == .string, let key = stack.string(at: 1), stack.type(at: 2) == .table else { return 0 }
            var fields: [String] = []
            var position = 1
            while stack.pushItem(position, of: 2) == .string, let field = stack.string(at: -1) {
                fields.append(field)
                stack.setTop(stack.top - 1)
                position += 1
            }
            guard let found = NearestName.nearest(to: key, in: fields) else { return 0 }
            stack.push(found)
            return 1
        }
        let chunk = try state.compileFunction(Self.source, chunkName: "storerules-strict-context")
        let table = try state.call(chunk, arguments: { stack in
            stack.push(nearest)
            return 1
        }, results: { _, first, _ in state.reference(toValueAt: first) })
        func field(_ name: String) -> LuaReference {
            state.withStack { stack in
                stack.push(table)
                _ = stack.pushIndexedField(name, of: stack.top)
                return state.reference(toValueAt: stack.top)
            }
        }
        context = field("ctx")
        customer = field("customer")
        subscription = field("subscription")
        product = field("product")
        productSubscription = field("product_subscription")
        transaction = field("transaction")
    }

    /// Makes each product of the read-only catalog `catalog` strict, and its `subscription`:
    /// the tables the catalog's views show get the metatables, so a view's lookup that misses
    /// reaches the check.
    func applyToProducts(of catalog: LuaReference, in state: LuaState) {
        state.withStack { stack in
            stack.push(catalog)
            guard stack.pushReadOnlyTarget(of: stack.top), stack.pushField("products", of: stack.top) == .table,
                  stack.pushReadOnlyTarget(of: stack.top) else { return }
            stack.forEachPair(of: stack.top) { _, value in
                let base = stack.top
                defer { stack.setTop(base) }
                guard stack.pushReadOnlyTarget(of: value) else { return }
                let target = stack.top
                stack.setMetatable(product, of: target)
                if stack.pushField("subscription", of: target) == .table, stack.pushReadOnlyTarget(of: stack.top) {
                    stack.setMetatable(productSubscription, of: stack.top)
                }
            }
        }
    }

    private static func list(_ fields: [String]) -> String {
        "{ " + fields.map { "\"\($0)\"" }.joined(separator: ", ") + " }"
    }

    private static var source: String {
        """
        local nearest = ...

        local function strict(name, fields)
            local known = {}
            for _, field in ipairs(fields) do known[field] = true end
            return {
                __index = function(_, key)
                    if known[key] then return nil end
                    local best = nearest(key, fields)
                    local hint = best and (" (did you mean '" .. best .. "'?)") or ""
                    error(name .. " has no field '" .. tostring(key) .. "'" .. hint, 2)
                end,
                __metatable = false,
            }
        end

        return {
            ctx = strict("ctx", \(list(contextFields))),
            customer = strict("ctx.customer", \(list(customerFields))),
            subscription = strict("a subscription entry of ctx.customer.subscriptions", \(list(subscriptionFields))),
            product = strict("a product", \(list(productFields))),
            product_subscription = strict("a product's subscription", \(list(productSubscriptionFields))),
            transaction = strict("the transaction", \(list(transactionFields))),
        }
        """
    }
}
