import Foundation
import Testing
@testable import StorePolicy

/// What counts as a changed decision when two policies are compared: a hook that fails on one
/// side only, and a customer seed on which the two split.
@Suite struct PolicyDiffChangeTests {
    @Test func aHookThatFailsOnOneSideAndASeedSplitAreChanges() throws {
        let old = PolicyDiff.Side(source: PolicySource(text: """
            return {
                show_merchandising = function(ctx, placement) return ctx.customer.seed < 50 end,
                features = function(ctx) return {} end,
            }
            """), catalog: .empty)
        let new = PolicyDiff.Side(source: PolicySource(text: """
            return {
                show_merchandising = function(ctx, placement) return ctx.customer.seed < 40 end,
                features = function(ctx) error("features are down") end,
            }
            """), catalog: .empty)
        let report = try PolicyDiff(old: old, new: new).compare(hooks: ["show_merchandising", "features"], placements: ["home"])
        let bySeed = try #require(report.changed.first { $0.hook == "show_merchandising" })
        #expect(bySeed.scenariosChanged == 2 * 3 * 10, "seeds 40–49, two customers, three storefronts")
        let failing = try #require(report.changed.first { $0.hook == "features" })
        let example = try #require(failing.examples.first)
        guard case .failure(let message) = example.new else {
            Issue.record("the new side's outcome is a failure: \(example.new)")
            return
        }
        #expect(!message.isEmpty)
    }
}
