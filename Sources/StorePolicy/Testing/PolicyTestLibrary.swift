import Foundation
import LuaBridge
import StoreCore

/// The helpers `*_test.lua` files (and the REPL) can use, written in Lua.
///
/// `sorted_keys(t)` lists a table's keys in order, `context{...}` builds a complete `ctx` (every table present, the catalog attached),
/// `product(id)` and `group(id)` look up the catalog, `transaction{...}` builds a transaction
/// as `consumption` receives it (`grant`'s, with `granted`, `granted_date` and `grants`), and the `expect_*` functions fail a test with the expected and the
/// actual value and the line of the check.
package enum PolicyTestLibrary {
    /// Defines the helpers, `CATALOG` and `NOW` in `environment`; returns what builds a strict
    /// `ctx` in `state` with the metatables `context{...}` uses.
    @discardableResult
    package static func install(in state: LuaState, environment: LuaReference, catalog: LuaReference,
                                now: Date) throws(LuaError) -> StrictContextBuilder {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        state.setField("CATALOG", in: environment) { $0.push(catalog) }
        state.setField("NOW", in: environment) { $0.push(seconds) }
        state.defineFunction("customer_seed") { stack throws(LuaError) in
            stack.push(CustomerContext.seed(for: stack.string(at: 1) ?? ""))
            return 1
        }
        let strict = StrictContext(in: state)
        let context = StrictContext.metatable("ctx", fields: StrictContext.contextFields, in: state)
        let customer = StrictContext.metatable("ctx.customer", fields: StrictContext.customerFields, in: state)
        strict.applyToProducts(of: catalog, in: state)
        let library = try state.compileFunction(source, chunkName: "storerules-test-library", environment: environment)
        try state.call(library, arguments: { stack in
            stack.push(context)
            stack.push(customer)
            stack.push(strict.subscription)
            stack.push(strict.refundedTransaction)
            return 4
        }, results: { _, _, _ in })
        return StrictContextBuilder(strict: strict, context: context, customer: customer)
    }

    /// Defines `decide(hook, ctx, ...)`: `hook` run through `engine` on the context `ctx`
    /// describes (a table such as `context{...}` builds) with the arguments after it, as a host
    /// decides — results validated, a missing display hook's default, a failing one's fallback.
    /// It returns the result and `{ source = "policy" | "default" | "fallback", reason = … }`;
    /// a failing `grant` or custom hook, or a request naming what does not exist, raises the
    /// error instead.
    package static func defineDecide(in state: LuaState, engine: PolicyEngine) {
        state.defineFunction("decide") { stack throws(LuaError) in
            guard let hook = stack.string(at: 1) else {
                throw LuaError(kind: .runtime, message: "decide: the first argument is the hook's name, such as \"plan_icon\"")
            }
            guard stack.type(at: 2) == .table else {
                throw LuaError(kind: .runtime, message: "decide: the second argument is ctx, a table such as context{...} builds")
            }
            let described = try stack.value(at: 2)
            let context: PolicyContext
            do throws(PolicyInputError) {
                context = try PolicyContext(luaValue: described)
            } catch {
                throw LuaError(kind: .runtime, message: "decide: ctx: \(error.description)")
            }
            var arguments: [LuaValue] = []
            if stack.top >= 3 {
                for index in 3...stack.top { arguments.append(try stack.value(at: index)) }
            }
            let response: HookResponse
            do throws(PolicyError) {
                response = try HookRequest(hook: hook, context: context, arguments: arguments).decide(with: engine, form: .lua(stack, first: 3))
            } catch {
                throw LuaError(kind: .runtime, message: "decide: \(error.description)")
            }
            stack.push(response.result.luaValue)
            var how = LuaTable(hash: [.string("source"): .string(response.source ?? "policy")])
            if let reason = response.fallbackReason { how.hash[.string("reason")] = .string(reason) }
            stack.push(LuaValue.table(how))
            return 2
        }
    }

    static let source = #"""
    -- The metatables that make a ctx strict, as the host's are (StrictContext).
    local STRICT_CTX, STRICT_CUSTOMER, STRICT_SUBSCRIPTION, STRICT_TRANSACTION = ...

    -- The keys of t, numbers and strings in order: for stable output over pairs().
    function sorted_keys(t)
        local keys = {}
        for k in pairs(t) do keys[#keys + 1] = k end
        table.sort(keys, function(a, b)
            if type(a) == type(b) and (type(a) == "number" or type(a) == "string") then return a < b end
            return type(a) < type(b)
        end)
        return keys
    end

    local function describe(value, depth)
        depth = depth or 0
        if type(value) == "string" then return string.format("%q", value) end
        if type(value) ~= "table" then return tostring(value) end
        if depth > 4 then return "{...}" end
        local parts, n = {}, #value
        for i = 1, n do parts[#parts + 1] = describe(value[i], depth + 1) end
        for _, k in ipairs(sorted_keys(value)) do
            if not (math.type(k) == "integer" and k >= 1 and k <= n) then
                local key = type(k) == "string" and k:match("^[%a_][%w_]*$") and k or "[" .. describe(k) .. "]"
                parts[#parts + 1] = key .. " = " .. describe(value[k], depth + 1)
            end
        end
        return "{ " .. table.concat(parts, ", ") .. " }"
    end

    local function deep_equal(a, b)
        if a == b then return true end
        if type(a) ~= "table" or type(b) ~= "table" then return false end
        for k, v in pairs(a) do if not deep_equal(v, b[k]) then return false end end
        for k in pairs(b) do if a[k] == nil then return false end end
        return true
    end

    local function fail(message, text)
        error((message and (message .. ": ") or "") .. text, 3)
    end

    function expect_eq(expected, actual, message)
        if not deep_equal(expected, actual) then
            fail(message, "expected " .. describe(expected) .. ", got " .. describe(actual))
        end
    end

    function expect_true(actual, message)
        if actual ~= true then fail(message, "expected true, got " .. describe(actual)) end
    end

    function expect_false(actual, message)
        if actual ~= false then fail(message, "expected false, got " .. describe(actual)) end
    end

    function expect_nil(actual, message)
        if actual ~= nil then fail(message, "expected nil, got " .. describe(actual)) end
    end

    function expect_contains(list, item, message)
        for _, value in ipairs(list or {}) do if deep_equal(value, item) then return end end
        fail(message, "expected " .. describe(list) .. " to contain " .. describe(item))
    end

    function expect_error(fn, pattern, message)
        local ok, err = pcall(fn)
        if ok then fail(message, "expected an error, got none") end
        if pattern and not tostring(err):find(pattern) then
            fail(message, "expected an error matching " .. describe(pattern) .. ", got " .. describe(tostring(err)))
        end
    end

    function product(id)
        local found = CATALOG.products[id]
        if found == nil then error("no product '" .. tostring(id) .. "' in the catalog", 2) end
        return found
    end

    function group(id)
        local found = CATALOG.groups[id]
        if found == nil then error("no subscription group '" .. tostring(id) .. "' in the catalog", 2) end
        return found
    end

    local function subscription_entry(group_id, spec)
        local p = CATALOG.products[spec.product_id]
        return {
            product_id = spec.product_id,
            group_level = spec.group_level or (p and p.subscription and p.subscription.group_level) or 0,
            state = spec.state or "subscribed",
            will_auto_renew = spec.will_auto_renew ~= false,
            expiration_date = spec.expiration_date or (NOW + 30 * 86400),
            intro_eligible = spec.intro_eligible == true,
            win_back_offers = spec.win_back_offers or {},
            paid_months = spec.paid_months or 0,
        }
    end

    function context(spec)
        spec = spec or {}
        local c = spec.customer or {}
        local subscriptions = {}
        for group_id, entry in pairs(c.subscriptions or {}) do
            subscriptions[group_id] = setmetatable(subscription_entry(group_id, entry), STRICT_SUBSCRIPTION)
        end
        local entitlements = {}
        for i, id in ipairs(c.entitlements or {}) do entitlements[i] = id end
        local balances, attributes, events = {}, {}, {}
        for k, v in pairs(c.balances or {}) do balances[k] = v end
        for k, v in pairs(c.attributes or {}) do attributes[k] = v end
        for name, e in pairs(c.events or {}) do
            local recent = {}
            for i, t in ipairs(e.recent or {}) do recent[i] = t end
            table.sort(recent, function(a, b) return a > b end)
            events[name] = { count = e.count or #recent, last = e.last or recent[1], recent = recent }
        end
        local id = c.id or ""
        local experiments = {}
        for name, pin in pairs(spec.experiments or {}) do experiments[name] = pin end
        return setmetatable({
            now = spec.now or NOW,
            storefront = spec.storefront or "USA",
            locale = spec.locale or "en_US",
            environment = spec.environment or "xcode",
            catalog = CATALOG,
            customer = setmetatable({
                id = id,
                seed = c.seed or customer_seed(id),
                status_known = c.status_known == true,
                entitlements = entitlements,
                subscriptions = subscriptions,
                balances = balances,
                attributes = attributes,
                events = events,
            }, STRICT_CUSTOMER),
            experiments = experiments,
        }, STRICT_CTX)
    end

    local APPLE_TYPES = {
        consumable = "Consumable", non_consumable = "Non-Consumable",
        auto_renewable = "Auto-Renewable Subscription", non_renewing = "Non-Renewing Subscription",
    }

    function transaction(spec)
        spec = spec or {}
        local p = spec.product_id and CATALOG.products[spec.product_id]
        local granted = spec.granted ~= false
        local purchase_date = spec.purchase_date or NOW
        local grants = {}
        for i, g in ipairs(spec.grants or {}) do
            grants[i] = { item = g.item, amount = g.amount, reversed = g.reversed == true }
        end
        return setmetatable({
            transaction_id = spec.transaction_id or "2000000000000001",
            original_transaction_id = spec.original_transaction_id or spec.transaction_id or "2000000000000001",
            product_id = spec.product_id,
            quantity = spec.quantity or 1,
            purchase_date = purchase_date,
            type = spec.type or (p and APPLE_TYPES[p.type]) or nil,
            app_account_token = spec.app_account_token,
            offer_type = spec.offer_type,
            offer_identifier = spec.offer_identifier,
            environment = spec.environment or "Xcode",
            storefront = spec.storefront or "USA",
            in_app_ownership_type = spec.in_app_ownership_type or "PURCHASED",
            granted = granted,
            granted_date = spec.granted_date or (granted and purchase_date or nil),
            grants = grants,
        }, STRICT_TRANSACTION)
    end
    """#
}
