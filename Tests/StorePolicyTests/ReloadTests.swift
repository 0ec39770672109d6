import Foundation
import Testing
@testable import StorePolicy

@Suite struct ReloadTests {
    private func policy(icon: String) -> PolicySource {
        PolicySource(text: "return { plan_icon = function(ctx, plan) return '\(icon)' end }")
    }

    @Test func reloadSwapsTheDecision() throws {
        let engine = try PolicyEngine(source: policy(icon: "bird"), catalog: testCatalog)
        #expect(engine.planIcon(newCustomer, productID: "pass.premium").value == "bird")
        let version = try engine.reload(policy(icon: "star"))
        #expect(engine.version == version)
        #expect(engine.planIcon(newCustomer, productID: "pass.premium").value == "star")
    }

    @Test func aBrokenReloadKeepsTheOldPolicyServingAndSaysWhy() throws {
        let engine = try PolicyEngine(source: policy(icon: "bird"), catalog: testCatalog)
        let before = engine.version
        let error = #expect(throws: PolicyError.self) {
            try engine.reload(PolicySource(text: "return { plan_icon = function(ctx, plan) return 'x' end"))
        }
        #expect(error?.kind == .syntax)
        #expect(engine.version == before)
        #expect(engine.planIcon(newCustomer, productID: "pass.premium").value == "bird")
        #expect(throws: PolicyError.self) { try engine.reload(PolicySource(text: "return { plan_icon = 7 }")) }
        #expect(engine.planIcon(newCustomer, productID: "pass.premium").value == "bird")
    }

    @Test func manyThreadsDecideWhileThePolicyIsReloaded() async throws {
        let icons = ["bird", "star", "leaf", "sun"]
        let engine = try PolicyEngine(source: policy(icon: icons[0]), catalog: testCatalog, maximumIdleStates: 8)
        let results = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var decided = 0
                    var wrong = 0
                    for _ in 0..<2_000 {
                        let decision = engine.planIcon(newCustomer, productID: "pass.premium")
                        if decision.source != .policy || !icons.contains(decision.value ?? "") { wrong += 1 }
                        decided += 1
                    }
                    return (decided, wrong)
                }
            }
            group.addTask {
                for round in 1...200 {
                    try engine.reload(self.policy(icon: icons[round % icons.count]))
                    if round % 20 == 0 {
                        _ = try? engine.reload(PolicySource(text: "return { plan_icon = "))
                    }
                }
                return (0, 0)
            }
            var total = (0, 0)
            for try await result in group { total = (total.0 + result.0, total.1 + result.1) }
            return total
        }
        #expect(results.0 == 16_000)
        #expect(results.1 == 0)
        #expect(engine.planIcon(newCustomer, productID: "pass.premium").value == icons[200 % icons.count])
    }
}
