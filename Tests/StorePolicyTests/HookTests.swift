import Foundation
import LuaBridge
import StoreCore
import Testing
@testable import StorePolicy

@Suite struct HookTests {
    static let policy = """
    local PASS = "PASS"
    local policy = {}
    function policy.show_merchandising(ctx, placement)
        local current = ctx.customer.subscriptions[PASS]
        return current == nil or placement == "store"
    end
    function policy.visible_relationships(ctx, group)
        if ctx.customer.subscriptions[group.id] then return { "upgrade" } end
        return { "all" }
    end
    function policy.plan_icon(ctx, plan)
        if plan.subscription.group_level == 1 then return "bird.fill" end
        return nil
    end
    function policy.grant(ctx, tx, product)
        if product.id == "pellets.box" then return { { item = "pellet", amount = 5 * tx.quantity } } end
        return {}
    end
    function policy.product_style(ctx, product)
        return product.id == "pellets.box" and "large" or "compact"
    end
    function policy.store_buttons(ctx, view)
        return { restore_purchases = "visible", redeem_code = view == "subscription_store" and "visible" or "hidden" }
    end
    function policy.features(ctx)
        local unlocked = {}
        for _, id in ipairs(ctx.customer.entitlements) do
            local product = ctx.catalog.products[id]
            if product and product.subscription then unlocked[#unlocked + 1] = "tracking" end
        end
        return unlocked
    end
    return policy
    """

    @Test func everyHookDecidesFromTheContext() throws {
        let engine = try makeEngine(Self.policy)
        let member = subscriber("pass.individual", level: 3)
        #expect(engine.showMerchandising(newCustomer, placement: "home").value == true)
        #expect(engine.showMerchandising(member, placement: "home").value == false)
        #expect(engine.showMerchandising(member, placement: "store").value == true)
        #expect(engine.visibleRelationships(member, groupID: "PASS").value == [.upgrade])
        #expect(engine.visibleRelationships(newCustomer, groupID: "PASS").value == [.all])
        #expect(engine.planIcon(member, productID: "pass.premium").value == "bird.fill")
        #expect(engine.planIcon(member, productID: "pass.family").value == nil)
        #expect(engine.productStyle(member, productID: "pellets.box").value == .large)
        let buttons = engine.storeButtons(member, view: .subscriptionStore).value
        #expect(buttons[.restorePurchases] == .visible && buttons[.redeemCode] == .visible && buttons[.cancellation] == .automatic)
        #expect(engine.features(member).value == ["tracking"])
        var transaction = JWSTransactionDecodedPayload()
        transaction.transactionId = "1000"
        transaction.productId = "pellets.box"
        transaction.quantity = 2
        let grants = try engine.grant(member, transaction: transaction, product: "pellets.box")
        #expect(grants.value == [Grant(item: "pellet", amount: 10)])
        #expect(grants.source == .policy)
    }

    @Test func missingHooksUseSafeDefaults() throws {
        let engine = try makeEngine("return {}")
        let unknown = PolicyContext(customer: CustomerContext(id: "c3"))
        #expect(engine.showMerchandising(unknown, placement: "home").value == false, "status unknown: never show offers")
        #expect(engine.showMerchandising(newCustomer, placement: "home").value == true)
        #expect(engine.showMerchandising(subscriber("pass.family", level: 2), placement: "home").value == false)
        #expect(engine.showMerchandising(subscriber("pass.family", level: 2, state: .expired), placement: "home").value == true)
        #expect(engine.visibleRelationships(newCustomer, groupID: "PASS").value == [.all])
        #expect(engine.planIcon(newCustomer, productID: "pass.premium").value == nil)
        #expect(engine.productStyle(newCustomer, productID: "pellets.box").value == .regular)
        #expect(engine.features(subscriber("pass.family", level: 2)).value == ["pass.family"])
        var transaction = JWSTransactionDecodedPayload()
        transaction.productId = "pellets.box"
        transaction.quantity = 3
        #expect(try engine.grant(newCustomer, transaction: transaction, product: "pellets.box").value == [Grant(item: "pellets.box", amount: 3)])
        #expect(try engine.grant(newCustomer, transaction: transaction, product: "feeder.skin").value == [])
        #expect(engine.planIcon(newCustomer, productID: "pass.premium").source == .defaultForMissingHook)
    }

    @Test(arguments: [
        ("return 'yes'", "expected a boolean, got \"yes\""),
        ("return nil", "expected a boolean, got nil"),
        ("return {}", "expected a boolean, got a table"),
    ])
    func wrongReturnTypesFallBackAndSayWhy(body: String, reason: String) throws {
        let engine = try makeEngine("return { show_merchandising = function(ctx, placement)\n \(body) end }")
        let decision = engine.showMerchandising(newCustomer, placement: "home")
        #expect(decision.value == true)
        #expect(decision.failure?.kind == .badResult)
        #expect(decision.failure?.reason == reason)
        #expect(decision.failure?.hook == "show_merchandising")
        #expect(decision.failure?.script == "policy.lua")
        #expect(decision.failure?.line == 1)
    }

    @Test func invalidEnumWordsAreRejected() throws {
        let engine = try makeEngine("""
        local policy = {}
        function policy.visible_relationships(ctx, group) return { "upgrade", "sideways" } end
        function policy.product_style(ctx, product) return "huge" end
        function policy.store_buttons(ctx, view) return { restore = "visible" } end
        return policy
        """)
        #expect(engine.visibleRelationships(newCustomer, groupID: "PASS").failure?.reason == "item 2: \"sideways\" is not a valid relationship")
        #expect(engine.productStyle(newCustomer, productID: "pellets.box").failure?.reason.contains("\"compact\", \"regular\" or \"large\"") == true)
        #expect(engine.storeButtons(newCustomer, view: .store).failure?.reason.hasPrefix("unknown store button \"restore\"") == true)
    }

    @Test func aFailingGrantThrowsInsteadOfGuessing() throws {
        let engine = try makeEngine("""
        local policy = {}
        function policy.grant(ctx, tx, product)
            return { { item = "pellet", amount = -5 } }
        end
        return policy
        """)
        var transaction = JWSTransactionDecodedPayload()
        transaction.productId = "pellets.box"
        let error = #expect(throws: PolicyError.self) {
            try engine.grant(newCustomer, transaction: transaction, product: "pellets.box")
        }
        #expect(error?.kind == .badResult)
        #expect(error?.hook == "grant")
        #expect(error?.line == 2)
    }

    @Test func transactionsReachGrantWithSnakeCaseFieldsAndEpochSeconds() throws {
        let engine = try makeEngine("""
        return { grant = function(ctx, tx, product)
            return { { item = tx.product_id .. "|" .. tx.transaction_id .. "|" .. tx.type .. "|" .. tx.purchase_date, amount = tx.quantity } }
        end }
        """)
        var transaction = JWSTransactionDecodedPayload()
        transaction.transactionId = "2000"
        transaction.productId = "pellets.box"
        transaction.quantity = 1
        transaction.type = .consumable
        transaction.purchaseDate = Date(timeIntervalSince1970: 1_767_225_600.5)
        let grants = try engine.grant(newCustomer, transaction: transaction, product: "pellets.box").value
        #expect(grants == [Grant(item: "pellets.box|2000|Consumable|1767225600", amount: 1)])
    }

    @Test func unknownProductsAreBadRequests() throws {
        let engine = try makeEngine(Self.policy)
        let decision = engine.planIcon(newCustomer, productID: "no.such.plan")
        #expect(decision.failure?.kind == .badRequest)
        #expect(decision.failure?.reason == "no product 'no.such.plan' in the catalog")
    }

    @Test func tracesCarryVersionInputsOutputAndReason() throws {
        let engine = try makeEngine(Self.policy)
        let decision = engine.planIcon(newCustomer, productID: "pass.premium", traced: true)
        let trace = try #require(decision.trace)
        #expect(trace.policyVersion == PolicyVersion.of(PolicySource(text: Self.policy), catalog: engine.catalog))
        #expect(trace.policyVersion == engine.version)
        #expect(trace.hook == "plan_icon")
        #expect(trace.inputs == [.string("pass.premium")])
        #expect(trace.output == .string("bird.fill"))
        #expect(trace.fallbackReason == nil)
        #expect(trace.durationNanoseconds > 0)
        let failed = try makeEngine("return { plan_icon = function() error('boom') end }")
            .planIcon(newCustomer, productID: "pass.premium", traced: true)
        #expect(failed.trace?.fallbackReason?.contains("boom") == true)
    }

    @Test func theCatalogIsSharedButReadOnly() throws {
        let engine = try makeEngine("""
        return { features = function(ctx)
            ctx.catalog.products["pellets.box"] = nil
            return {}
        end, plan_icon = function(ctx, plan) return ctx.catalog.products[plan.id].display_name end }
        """)
        let decision = engine.features(newCustomer)
        #expect(decision.failure?.reason.contains("read-only") == true)
        #expect(engine.planIcon(newCustomer, productID: "pass.premium").value == "pass.premium")
    }

    @Test func pairsOverTheCatalogNeverHandsOutAWritableTable() throws {
        let engine = try makeEngine("""
        return { features = function(ctx)
            local _, state = pairs(ctx.catalog.products)
            local written = pcall(function() state["pellets.box"] = nil end)
            local count = 0
            for _ in pairs(ctx.catalog.products) do count = count + 1 end
            return { tostring(written), tostring(count) }
        end }
        """)
        #expect(engine.features(newCustomer).value == ["false", "\(testCatalog.products.count)"])
    }

    @Test func customHooksAreCallableByName() throws {
        let engine = try makeEngine("return { double = function(ctx, n) return n * 2 end }")
        #expect(try engine.call("double", context: newCustomer, arguments: [.value(.integer(21))]).value == .integer(42))
        let error = #expect(throws: PolicyError.self) { try engine.call("triple", context: newCustomer, arguments: []) }
        #expect(error?.kind == .badRequest)
    }
}

@Suite struct ResultShapeTests {
    @Test func aSingleGrantInsteadOfAListIsABadResult() throws {
        let engine = try makeEngine("return { grant = function(ctx, tx, product) return { item = 'pellet', amount = 1 } end }")
        var transaction = JWSTransactionDecodedPayload()
        transaction.productId = "pellets.box"
        let error = #expect(throws: PolicyError.self) { try engine.grant(newCustomer, transaction: transaction, product: "pellets.box") }
        #expect(error?.kind == .badResult)
        #expect(error?.reason.contains("expected a list") == true)
        #expect(error?.line == 1)
    }

    @Test func catalogTablesReturnedFromHooksAreReadThrough() throws {
        let engine = try makeEngine("""
        local M = {}
        M.features = function(ctx) return ctx.catalog.groups["PASS"].products end
        M.first_plan = function(ctx) return ctx.catalog.products["pass.premium"] end
        return M
        """)
        #expect(engine.features(newCustomer).value == ["pass.premium", "pass.family", "pass.individual"])
        let plan = try engine.call("first_plan", context: newCustomer, arguments: []).value
        guard case .table(let table) = plan else { Issue.record("expected a table"); return }
        #expect(table.hash[.string("id")] == .string("pass.premium"))
    }

    @Test func badResultsNameTheHooksLineWhateverTheTableIsCalled() throws {
        let engine = try makeEngine("local rules = {}\n\nrules.product_style = function(ctx, product)\n  return 'huge'\nend\nreturn rules")
        #expect(engine.productStyle(newCustomer, productID: "pellets.box").failure?.line == 3)
    }

    @Test func failingTopLevelCodeIsAnInvalidPolicy() throws {
        let error = #expect(throws: PolicyError.self) { try makeEngine("error('not configured')") }
        #expect(error?.kind == .invalidPolicy)
        #expect(error?.line == 1)
    }
}
