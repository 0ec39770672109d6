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
}
