import Foundation
import LuaBridge
import StorePolicy
import Testing

/// `ctx` is filled as hooks read it: these pin that a hook sees exactly what an eager push
/// gave, that a state never shows one customer's context to another's decision, and that
/// `ctx` is read-only.
@Suite struct LazyContextTests {
    private func customer(_ id: String, product: String, state: SubscriptionState, balance: Int) -> PolicyContext {
        PolicyContext(now: Date(timeIntervalSince1970: 1_767_225_600), storefront: id == "ana" ? "ESP" : "JPN",
                      customer: CustomerContext(
                        id: id, statusKnown: true, entitlements: [product],
                        subscriptions: ["PASS": SubscriptionSnapshot(productID: product, groupLevel: 2, state: state)],
                        balances: ["pellet": balance], attributes: ["name": .string(id)],
                        events: ["paywall_shown": EventHistory(count: balance, last: nil, recent: [])]))
    }

    /// Everything a hook can read of the customer, as one line.
    private let describing = """
    local function describe(ctx)
        local c = ctx.customer
        return table.concat({ ctx.storefront, c.id, tostring(c.seed), c.entitlements[1], c.subscriptions.PASS.state,
            tostring(c.balances.pellet), c.attributes.name, tostring(c.events.paywall_shown.count) }, " ")
    end

    """

    @Test func alternatingCustomersOnOneStateEachSeeOnlyTheirOwnContext() throws {
        let engine = try PolicyEngine(source: PolicySource(text: describing + """
        return {
            describe = function(ctx) return describe(ctx) end,
            only_id = function(ctx) return ctx.customer.id end,
        }
        """), maximumIdleStates: 1)
        let ana = customer("ana", product: "pass.family", state: .subscribed, balance: 3)
        let ben = customer("ben", product: "pass.individual", state: .expired, balance: 7)
        let anaLine = "ESP ana \(CustomerContext.seed(for: "ana")) pass.family subscribed 3 ana 3"
        let benLine = "JPN ben \(CustomerContext.seed(for: "ben")) pass.individual expired 7 ben 7"
        for round in 0..<20 {
            // A call that reads only part of ctx, between whole reads, must not leave a part behind.
            let (first, second) = round.isMultiple(of: 2) ? (ana, ben) : (ben, ana)
            #expect(try engine.call("only_id", context: first, arguments: []).value == .string(first.customer.id))
            #expect(try engine.call("describe", context: second, arguments: []).value == .string(second.customer.id == "ana" ? anaLine : benLine))
            #expect(try engine.call("describe", context: first, arguments: []).value == .string(first.customer.id == "ana" ? anaLine : benLine))
        }
    }

    @Test func aContextKeptPastItsCallIsAnErrorNeverTheNextCustomer() throws {
        let engine = try PolicyEngine(source: PolicySource(text: """
        local kept, kept_customer, kept_entry
        return {
            keep = function(ctx)
                kept, kept_customer, kept_entry = ctx, ctx.customer, ctx.customer.subscriptions.PASS
                return ctx.customer.id
            end,
            read_kept = function(ctx)
                local ok_ctx, ctx_error = pcall(function() return kept.storefront end)
                local ok_customer, customer_error = pcall(function() return kept_customer.id end)
                return { ok_ctx, ctx_error, ok_customer, customer_error, kept_entry.product_id, ctx.customer.id }
            end,
        }
        """), maximumIdleStates: 1)
        let ana = customer("ana", product: "pass.family", state: .subscribed, balance: 3)
        let ben = customer("ben", product: "pass.individual", state: .expired, balance: 7)
        _ = try engine.call("keep", context: ana, arguments: [])
        let read = try engine.call("read_kept", context: ben, arguments: []).value
        guard case .table(let table) = read else {
            Issue.record("read_kept returned \(read)")
            return
        }
        #expect(table.array.count == 6)
        #expect(table.array[0] == .boolean(false))
        #expect(text(table.array[1]).contains("ctx belongs to a hook call that has ended"))
        #expect(table.array[2] == .boolean(false))
        #expect(text(table.array[3]).contains("ctx.customer belongs to a hook call that has ended"))
        // A plain table read during the earlier call keeps the earlier customer's values.
        #expect(table.array[4] == .string("pass.family"))
        #expect(table.array[5] == .string("ben"))
    }

    private func text(_ value: LuaValue) -> String {
        if case .string(let text) = value { return text }
        return "\(value)"
    }

    @Test func pairsWalksEveryFieldWithTheValuesReadsGive() throws {
        let engine = try PolicyEngine(source: PolicySource(text: """
        return { features = function(ctx)
            local seen = {}
            for key, value in pairs(ctx) do
                if value ~= ctx[key] then error("ctx." .. key .. " differs from pairs") end
                seen[#seen + 1] = key
            end
            for key, value in pairs(ctx.customer) do
                if value ~= ctx.customer[key] then error("customer." .. key .. " differs from pairs") end
                seen[#seen + 1] = "customer." .. key
            end
            table.sort(seen)
            return seen
        end }
        """))
        let decision = engine.features(customer("ana", product: "pass.family", state: .subscribed, balance: 3))
        #expect(decision.source == .policy)
        #expect(decision.value == ["catalog", "customer", "customer.attributes", "customer.balances", "customer.entitlements",
                                   "customer.events", "customer.id", "customer.seed", "customer.status_known",
                                   "customer.subscriptions", "environment", "experiments", "locale", "now", "storefront"])
    }

    @Test func ctxAndItsCustomerAreReadOnly() throws {
        let engine = try PolicyEngine(source: PolicySource(text: """
        return {
            top = function(ctx) ctx.note = 1 end,
            known = function(ctx) local _ = ctx.storefront; ctx.storefront = "GBR" end,
            customer = function(ctx) ctx.customer.id = "someone else" end,
        }
        """))
        func failure(_ hook: String) -> String {
            do {
                _ = try engine.call(hook, context: customer("ana", product: "pass.family", state: .subscribed, balance: 3), arguments: [])
                return "no failure"
            } catch {
                return error.description
            }
        }
        #expect(failure("top").contains("policy.lua:2"))
        #expect(failure("top").contains("attempt to modify read-only table 'ctx' (field 'note')"))
        #expect(failure("known").contains("attempt to modify read-only table 'ctx' (field 'storefront')"))
        #expect(failure("customer").contains("attempt to modify read-only table 'ctx.customer' (field 'id')"))
    }

    @Test func aStorefrontPlansHooksShareOneContextAndTheNextPlanGetsItsOwn() throws {
        let engine = try PolicyEngine(source: PolicySource(text: """
        local customers, reads = {}, 0
        local function note(ctx)
            customers[ctx.customer] = true
            reads = reads + 1
        end
        return {
            show_merchandising = function(ctx) note(ctx); return true end,
            product_style = function(ctx) note(ctx); return "regular" end,
            plan_icon = function(ctx) note(ctx); return nil end,
            store_buttons = function(ctx) note(ctx); return {} end,
            visible_relationships = function(ctx) note(ctx); return { "all" } end,
            custom_hooks = { "count" },
            count = function(ctx)
                local distinct = 0
                for _ in pairs(customers) do distinct = distinct + 1 end
                local result = { distinct = distinct, reads = reads }
                customers, reads = {}, 0
                return result
            end,
        }
        """), catalog: testCatalog, maximumIdleStates: 1)
        let ana = customer("ana", product: "pass.family", state: .subscribed, balance: 3)
        for _ in 0..<2 {
            let plan = engine.storefrontPlan(ana, placement: "home")
            #expect(plan.decisions.allSatisfy { $0.source == "policy" })
            let counted = try engine.call("count", context: ana, arguments: []).value
            guard case .table(let table) = counted else {
                Issue.record("count returned \(counted)")
                return
            }
            #expect(table.hash[.string("distinct")] == .integer(1))
            // Every hook of the plan ran (plan_icon also for store products the plan notes only with an icon).
            guard case .integer(let reads)? = table.hash[.string("reads")] else {
                Issue.record("count returned no reads: \(table)")
                return
            }
            #expect(reads >= plan.decisions.count)
        }
    }
}
