import Foundation
import StoreCore
import StorePolicy
import Testing
import TestPrerequisites

@Suite struct StrictContextTests {
    private let subscriber = PolicyContext(customer: CustomerContext(
        id: "watcher", statusKnown: true,
        subscriptions: ["PASS": SubscriptionSnapshot(productID: "pass.premium", groupLevel: 1, state: .subscribed)]))

    @Test func aTypoInAFieldNameFailsTheHookNamingTheFieldAndTheNearestOne() throws {
        let engine = try PolicyEngine(source: PolicySource(text: """
        return { show_merchandising = function(ctx, placement) return ctx.customer.subscription == nil end }
        """))
        let decision = engine.showMerchandising(subscriber, placement: "home")
        guard case .fallback(let error) = decision.source else {
            Issue.record("the typo did not fail the hook: \(decision.source)")
            return
        }
        #expect(error.description.contains("ctx.customer has no field 'subscription' (did you mean 'subscriptions'?)"))
        #expect(error.line == 1)
    }

    @Test func everyStrictTableNamesItsOwnFields() throws {
        let engine = try PolicyEngine(source: PolicySource(text: """
        return {
            top = function(ctx) return ctx.storefrnt end,
            entry = function(ctx) return ctx.customer.subscriptions.PASS.stat end,
            far = function(ctx) return ctx.customer.zzzzzzzz end,
        }
        """))
        func failure(_ hook: String) -> String {
            do {
                _ = try engine.call(hook, context: subscriber, arguments: [])
                return "no failure"
            } catch {
                return error.description
            }
        }
        #expect(failure("top").contains("ctx has no field 'storefrnt' (did you mean 'storefront'?)"))
        #expect(failure("entry").contains("a subscription entry of ctx.customer.subscriptions has no field 'stat' (did you mean 'state'?)"))
        #expect(failure("far").contains("ctx.customer has no field 'zzzzzzzz'"))
        #expect(!failure("far").contains("did you mean"))
    }

    @Test func knownFieldsLeftOutAndDataTablesStayOpenAndTheMetatablesAreLocked() throws {
        let engine = try PolicyEngine(source: PolicySource(text: """
        return { features = function(ctx)
            local entry = ctx.customer.subscriptions.PASS
            local checks = {
                entry.expiration_date == nil,
                ctx.customer.subscriptions.OTHER == nil,
                ctx.customer.balances.pellet == nil,
                ctx.customer.attributes.anything == nil,
                ctx.customer.events.paywall_shown == nil,
                rawget(ctx, "nope") == nil,
                getmetatable(ctx) == false,
                getmetatable(ctx.customer) == false,
                not pcall(setmetatable, ctx.customer, {}),
            }
            local failed = {}
            for i, ok in ipairs(checks) do if not ok then failed[#failed + 1] = "check " .. i end end
            return failed
        end }
        """))
        let decision = engine.features(subscriber)
        #expect(decision.source == .policy)
        #expect(decision.value == [])
    }

    @Test func aProductAndItsSubscriptionAreStrictWhereverTheyAreRead() throws {
        let engine = try PolicyEngine(source: PolicySource(text: """
        return {
            product_style = function(ctx, product)
                if product.subscription ~= nil then return "large" end
                return product.dispaly_name
            end,
            plan_icon = function(ctx, plan)
                local level = ctx.catalog.products[plan.id].subscription.group_levl
                return "never"
            end,
            features = function(ctx)
                local box = ctx.catalog.products["pellets.box"]
                return { box.display_name, tostring(box.subscription), tostring(ctx.catalog.products.nothing) }
            end,
        }
        """), catalog: testCatalog)
        let style = engine.productStyle(subscriber, productID: "pellets.box")
        guard case .fallback(let styleError) = style.source else {
            Issue.record("the typo did not fail product_style: \(style.source)")
            return
        }
        #expect(styleError.description.contains("a product has no field 'dispaly_name' (did you mean 'display_name'?)"))
        let icon = engine.planIcon(subscriber, productID: "pass.premium")
        guard case .fallback(let iconError) = icon.source else {
            Issue.record("the typo did not fail plan_icon: \(icon.source)")
            return
        }
        #expect(iconError.description.contains("a product's subscription has no field 'group_levl' (did you mean 'group_level'?)"))
        #expect(engine.features(subscriber).value == ["Box of Pellets", "nil", "nil"])
    }

    @Test func aCatalogTypoIsReportedAtThePolicyLineThatReadItThroughTheSharedView() throws {
        let engine = try PolicyEngine(source: PolicySource(text: """
        return {
            product_style = function(ctx, product)
                local entry = ctx.catalog.products[product.id]
                return entry.dispaly_name
            end,
        }
        """), catalog: testCatalog)
        let style = engine.productStyle(subscriber, productID: "pellets.box")
        guard case .fallback(let error) = style.source else {
            Issue.record("the typo did not fail product_style: \(style.source)")
            return
        }
        #expect(error.line == 4)
        #expect(error.description.contains("a product has no field 'dispaly_name' (did you mean 'display_name'?)"))
    }

    @Test func theTransactionGrantReceivesIsStrictAndItsUnsetFieldsReadAsNil() throws {
        let engine = try PolicyEngine(source: PolicySource(text: """
        return { grant = function(ctx, tx, product)
            if tx.expires_date ~= nil or tx.offer_type ~= nil then error("unset fields read as nil") end
            return { { item = "pellet", amount = 5 * tx.quantiy } }
        end }
        """), catalog: testCatalog)
        let purchase = JWSTransactionDecodedPayload(transactionId: "1", productId: "pellets.box", quantity: 2)
        let error = #expect(throws: PolicyError.self) {
            _ = try engine.grant(subscriber, transaction: purchase, product: "pellets.box")
        }
        #expect(error?.description.contains("the transaction has no field 'quantiy' (did you mean 'quantity'?)") == true)
    }

    @Test func contextInATestFileIsStrictAsWell() throws {
        let folder = try TestFolders.make("storerules-strict")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "policy_test.lua")
        try """
        function test_a_typo_fails()
            expect_error(function() return policy.known(context{}) end, "has no field 'status_knwn'")
        end
        function test_known_fields_read()
            expect_eq(false, policy.right(context{}))
        end
        function test_a_transaction_typo_fails()
            expect_error(function() return transaction{ product_id = "x" }.prodcut_id end, "did you mean 'product_id'")
        end
        """.write(to: file, atomically: true, encoding: .utf8)
        let source = PolicySource(text: """
        return {
            known = function(ctx) return ctx.customer.status_knwn end,
            right = function(ctx) return ctx.customer.status_known end,
        }
        """)
        let outcomes = PolicyTestRunner(source: source, catalog: .empty).run(file: file)
        #expect(outcomes.map(\.name) == ["test_a_typo_fails", "test_known_fields_read", "test_a_transaction_typo_fails"])
        for outcome in outcomes { #expect(outcome.passed, "\(outcome.name): \(outcome.failure ?? "")") }
    }
}
