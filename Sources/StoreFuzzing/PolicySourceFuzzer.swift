import Foundation
import LuaBridge
import StoreCore
import StorePolicy

/// Loads the input as a policy's text, under tight limits, and when it loads makes a
/// storefront plan for a known customer and compares its experiments with another version's:
/// the policy table's checks (hooks that are not functions, `custom_hooks`, the lint) and
/// every part of `policy.experiments` (names, variants, weights, traffic, audience, window,
/// salt) meet arbitrary text, and `ctx.experiments` arbitrary reads.
final class PolicySourceFuzzer {
    private static let limits = LuaLimits(instructionBudget: 200_000, deadline: .milliseconds(200), memoryLimit: 8 << 20)
    private let reference: [String: ExperimentDeclaration]
    private let customer = PolicyContext(now: Date(timeIntervalSince1970: 1_800_000_000),
                                         customer: CustomerContext(id: "fuzz-customer", statusKnown: true))

    init() throws {
        reference = try PolicyEngine(source: PolicySource(text: String(decoding: Self.seeds[0], as: UTF8.self)), limits: Self.limits).experiments
    }

    /// Loads the input and, when it loads, decides with it.
    func load(_ input: Data) {
        let text = String(decoding: input.prefix(16_384), as: UTF8.self)
        guard let engine = try? PolicyEngine(source: PolicySource(text: text, chunkName: "fuzz.lua"), limits: Self.limits,
                                             maximumIdleStates: 1) else { return }
        _ = engine.warnings
        _ = ExperimentChange.between(reference, engine.experiments)
        _ = engine.storefrontPlan(customer, placement: "home")
        for name in engine.experiments.keys.sorted().prefix(4) {
            _ = try? engine.call("variant", context: customer, arguments: [.value(.string(name))])
        }
    }

    /// Policies that declare experiments well and badly.
    static let seeds: [Data] = [
        """
        local policy = { experiments = { hero = { variants = { control = 50, sampler = 50 }, traffic = 80,
            audience = function(ctx) return ctx.storefront == "USA" end, starts = "2026-12-10", ends = "2027-01-10T00:00:00Z" } } }
        function policy.variant(ctx, name) return ctx.experiments[name] end
        function policy.show_merchandising(ctx, placement) return ctx.experiments.hero == "sampler" end
        return policy
        """,
        "return { experiments = { a = { variants = { control = 1, b = -1 } } } }",
        "return { experiments = { a = { variants = { control = 1, b = 1 }, trafic = 5, salt = '' } } }",
        "return { experiments = { [1] = {}, a = 3, b = { variants = {} } } }",
        "return { experiments = { a = { variants = { control = 1, b = 2 }, starts = '2026-13-45', ends = '2026-01-01' } } }",
        """
        local policy = { experiments = { a = { variants = { control = 1, b = 1 }, audience = function(ctx) return ctx.experiments.a end } } }
        function policy.show_merchandising(ctx) for k in pairs(ctx.experiments) do end return ctx.experiments.zz end
        return policy
        """,
    ].map { Data($0.utf8) }
}
