import StorePolicy
import Testing

@Suite struct PolicyLintTests {
    @Test func aMisspelledHookIsReportedWithTheHookItResembles() throws {
        let engine = try PolicyEngine(source: PolicySource(text: """
        local policy = {}
        function policy.show_merchandize(ctx, placement) return false end
        function policy.plan_icon(ctx, plan) return nil end
        return policy
        """))
        #expect(engine.warnings == ["the policy table's key 'show_merchandize' is not a hook; did you mean 'show_merchandising'?"])
    }

    @Test func declaredCustomHooksAreNotReportedButUndefinedOnesAre() throws {
        let engine = try PolicyEngine(source: PolicySource(text: """
        local policy = { custom_hooks = { "upgrade_offer", "missing_one" }, VERSION = 3 }
        function policy.upgrade_offer(ctx) return {} end
        return policy
        """))
        #expect(engine.warnings == [
            "the policy table's key 'VERSION' is not a hook; declare a function of your own in custom_hooks",
            "custom_hooks names 'missing_one', which the policy table does not define as a function",
        ])
        let result = try engine.call("upgrade_offer", context: PolicyContext(customer: CustomerContext()), arguments: [])
        #expect(result.source == .policy)
    }

    @Test func aPolicyOfKnownHooksHasNoWarningsAndAReloadBringsItsOwn() throws {
        let engine = try PolicyEngine(source: PolicySource(text: "return { features = function(ctx) return {} end }"))
        #expect(engine.warnings.isEmpty)
        try engine.reload(PolicySource(text: "return { featurs = function(ctx) return {} end }"))
        #expect(engine.warnings == ["the policy table's key 'featurs' is not a hook; did you mean 'features'?"])
    }
}
