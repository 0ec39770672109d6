import Foundation
@testable import StorePolicy
import Testing
import TestPrerequisites

/// Events reach a policy's own tests through `context{}` and a decision's input through its
/// JSON, and the frequency cap docs/policy.md prints passes the test printed beside it.
@Suite struct PolicyTestEventsTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The outcomes of the tests `tests` (a `policy_test.lua`) run against `policy`.
    static func outcomes(policy: String, tests: String) throws -> [PolicyTestRunner.Outcome] {
        let folder = try TestFolders.make("storerules-events")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "policy_test.lua")
        try tests.write(to: file, atomically: true, encoding: .utf8)
        return PolicyTestRunner(source: PolicySource(text: policy, chunkName: "policy.lua"), catalog: .empty).run(file: file)
    }

    @Test func policyTestsAndEvalInputsGiveEventsToTheContext() throws {
        let policy = """
        local policy = {}
        function policy.show_merchandising(ctx, placement)
            local shown = ctx.customer.events.paywall_shown
            return shown == nil or ctx.now - shown.last >= 3600
        end
        return policy
        """
        let tested = try Self.outcomes(policy: policy, tests: """
        function test_not_twice_within_an_hour()
            local shown = context{ customer = { events = { paywall_shown = { recent = { NOW - 7200, NOW - 60 } } } } }
            expect_eq(2, shown.customer.events.paywall_shown.count)
            expect_eq(NOW - 60, shown.customer.events.paywall_shown.last)
            expect_false(policy.show_merchandising(shown, "home"))
            expect_true(policy.show_merchandising(context{}, "home"))
        end
        """)
        #expect(tested.count == 1)
        #expect(tested.allSatisfy { $0.failure == nil }, "\(tested)")

        let engine = try PolicyEngine(source: PolicySource(text: policy), catalog: .empty)
        func decided(_ input: String) throws -> HookResult {
            try HookRequest(hook: "show_merchandising", context: PolicyContext.decode(json: Data(input.utf8)),
                            arguments: [.string("home")]).evaluate(with: engine).result
        }
        #expect(try decided(#"{"now": 1800000000, "customer": {"events": {"paywall_shown": {"last": 1799999000}}}}"#) == .boolean(false))
        #expect(try decided(#"{"now": 1800000000}"#) == .boolean(true), "the event, not the input's shape, decides")
    }

    @Test func theFrequencyCapInThePolicyGuidePassesItsOwnTest() throws {
        let guide = try String(contentsOf: Self.packageRoot.appending(path: "docs/policy.md"), encoding: .utf8)
        func luaBlock(after marker: String) throws -> String {
            let start = try #require(guide.range(of: marker), "docs/policy.md lacks \(marker)")
            let open = try #require(guide.range(of: "```lua\n", range: start.upperBound..<guide.endIndex))
            let close = try #require(guide.range(of: "```", range: open.upperBound..<guide.endIndex))
            return String(guide[open.upperBound..<close.lowerBound])
        }
        let hook = try luaBlock(after: "At most three times a week, never twice")
        let test = try luaBlock(after: "and its test:")
        let outcomes = try Self.outcomes(policy: "local policy = {}\n" + hook + "return policy\n", tests: test)
        #expect(outcomes.count == 1, "\(outcomes)")
        #expect(outcomes.allSatisfy { $0.failure == nil }, "\(outcomes)")
    }
}
