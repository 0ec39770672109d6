import Foundation
import LuaBridge
import Testing
@testable import StorePolicy

@Suite struct PolicyDiffScenarioTests {
    private func side(_ policy: String, tests: [String] = [], catalog: PolicyCatalog = .empty) -> PolicyDiff.Side {
        PolicyDiff.Side(source: PolicySource(text: policy), catalog: catalog, tests: tests)
    }

    private func firstExample(_ report: PolicyDiff.Report) throws -> PolicyDiff.Example {
        try #require(report.changed.first?.examples.first)
    }

    @Test func anAttributeTheTestsSetIsTriedWithAValueOnlyTheNewPolicyWrites() throws {
        let tests = [#"local gold = context{ customer = { status_known = true, attributes = { tier = "gold" } } }"#]
        let old = side("return { features = function(ctx) return {} end }", tests: tests)
        let new = side("""
        local function attribute(ctx, name) return ctx.customer.attributes[name] end
        return { features = function(ctx)
            if attribute(ctx, "tier") == "platinum" then return { "lounge" } end
            return {}
        end }
        """, tests: tests)
        let report = try PolicyDiff(old: old, new: new).compare(hooks: ["features"])
        let example = try firstExample(report)
        #expect(example.input.customer.attributes == ["tier": .string("platinum")])
        #expect(example.old == .result(.strings([])) && example.new == .result(.strings(["lounge"])))
    }

    @Test func anEventIsTriedAtAgesOnBothSidesOfAThreshold() throws {
        let old = side("return { show_merchandising = function(ctx, placement) return true end }")
        let new = side("""
        return { show_merchandising = function(ctx, placement)
            local shown = ctx.customer.events.paywall_shown
            return shown == nil or ctx.now - shown.last >= 3600
        end }
        """)
        let report = try PolicyDiff(old: old, new: new).compare(hooks: ["show_merchandising"], placements: ["home"], limit: 1_000)
        let examples = try #require(report.changed.first).examples
        let ages = Set(examples.compactMap { example in
            example.input.customer.events["paywall_shown"]?.last.map { Int(example.input.now.timeIntervalSince($0)) }
        })
        #expect(ages == [3599], "3600 and 3601 decide as before")
        #expect(examples.allSatisfy { $0.old != $0.new })
    }

    @Test func aBalanceIsTriedOnBothSidesOfAThreshold() throws {
        let grant = #"grant = function(ctx, tx, product) return { { item = "pellet", amount = tx.quantity } } end"#
        let old = side("return { \(grant), features = function(ctx) return {} end }", catalog: testCatalog)
        let new = side("""
        return { \(grant), features = function(ctx)
            if (ctx.customer.balances.pellet or 0) >= 20 then return { "bulk_buyer" } end
            return {}
        end }
        """, catalog: testCatalog)
        let report = try PolicyDiff(old: old, new: new).compare(hooks: ["features"], limit: 100)
        let balances = Set(try #require(report.changed.first).examples.compactMap { $0.input.customer.balances["pellet"] })
        #expect(balances == [20, 21], "19 decides as before")
    }

    @Test func eachNewValueIsTriedAloneSoTheMatrixGrowsByTheirNumber() throws {
        let old = side("return {}")
        let new = side("""
        return { show_merchandising = function(ctx, placement)
            return ctx.storefront == "FRA" or ctx.locale == "fr_FR" or ctx.customer.attributes.tier == "gold"
        end }
        """)
        let report = try PolicyDiff(old: old, new: new).compare(hooks: ["show_merchandising"], limit: 1_000)
        let base = 2 * 3 * 2
        let variations = 1 + 1 + 2 + 6
        #expect(report.scenarios == base + variations * 2,
                "2 customers × USA, GBR, JPN × home, store; then FRA, fr_FR, sandbox, production and tier = each of 4 strings, true, false on the known customer at both placements")
        let examples = try #require(report.changed.first).examples
        #expect(!examples.contains { $0.input.storefront == "FRA" && $0.input.locale == "fr_FR" })
    }
}
