import Foundation
import Testing
@testable import StorePolicy

@Suite struct DecisionExplanationTests {
    /// A policy whose answer depends on the level of the customer's subscription.
    static let policy = """
    local policy = {}
    function policy.visible_relationships(ctx, group)
        local current = ctx.customer.subscriptions[group.id]
        if current ~= nil and current.group_level == 3 then return { "upgrade" } end
        return { "all" }
    end
    return policy
    """

    @Test func theExplainedContextIsTheOneTheHookReadsWithTheGroupLevelFromTheCatalog() throws {
        let input = #"{"now": 1767225600, "customer": {"status_known": true, "subscriptions": {"PASS": {"product_id": "pass.individual"}}}}"#
        let context = try PolicyContext.decode(json: Data(input.utf8))
        #expect(context.customer.subscriptions["PASS"]?.groupLevel == 0, "the input leaves the level out")
        let request = HookRequest(hook: "visible_relationships", context: context, arguments: [.string("PASS")])

        let explanation = try request.explain(source: PolicySource(text: Self.policy), catalog: testCatalog)

        let response = try #require(explanation.response)
        #expect(response.result == .strings(["upgrade"]), "the hook read level 3")
        let explained = try PolicyContext.decode(json: Data(try #require(explanation.arguments.first).utf8))
        #expect(explained.customer.subscriptions["PASS"]?.groupLevel == 3)
        #expect(explained == response.trace?.context, "the explanation shows the context the trace records")
    }

    /// A policy whose merchandising decision calls a local function, and whose features hook fails.
    static let tieredPolicy = """
    local policy = {}
    local function tier(ctx)
        return ctx.customer.attributes.tier or "none"
    end
    function policy.show_merchandising(ctx, placement)
        if placement == "store" then
            return true
        end
        return tier(ctx) ~= "gold"
    end
    function policy.features(ctx)
        local count = #ctx.customer.entitlements
        error("features are down for " .. count)
    end
    return policy
    """

    /// The lines of `explanation` as `NUMBER TEXT`, with runs of spaces made one.
    static func ran(_ explanation: DecisionExplanation) -> [String] {
        explanation.lines.map { "\($0.number) " + $0.text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
    }

    @Test func theLinesADecisionRanAreListedInOrderWithTheArguments() throws {
        let context = try PolicyContext.decode(json: Data(#"{"customer": {"attributes": {"tier": "gold"}}}"#.utf8))
        let request = HookRequest(hook: "show_merchandising", context: context, arguments: [.string("home")])
        let explanation = try request.explain(source: PolicySource(text: Self.tieredPolicy), catalog: .empty)
        #expect(explanation.hook == "show_merchandising")
        #expect(explanation.parameters == ["ctx", "placement"])
        #expect(explanation.arguments.count == 2)
        #expect(explanation.arguments.first?.hasPrefix("{") == true)
        #expect(explanation.arguments.first?.contains(#""tier":"gold""#) == true, "\(explanation.arguments)")
        #expect(explanation.arguments.last == #""home""#)
        #expect(explanation.response?.result == .boolean(false))
        #expect(explanation.chunkName == "policy.lua")
        #expect(Self.ran(explanation) == [
            #"6 if placement == "store" then"#,
            #"9 return tier(ctx) ~= "gold""#,
            #"3 return ctx.customer.attributes.tier or "none""#,
        ])
    }

    @Test func aFailingDecisionIsExplainedUpToItsError() throws {
        let explanation = try HookRequest(hook: "features").explain(source: PolicySource(text: Self.tieredPolicy), catalog: .empty)
        #expect(explanation.response == nil)
        let failure = try #require(explanation.failure)
        #expect(failure.description.contains("features are down for 0"), "\(failure)")
        #expect(Self.ran(explanation) == ["12 local count = #ctx.customer.entitlements", #"13 error("features are down for " .. count)"#])
    }
}
