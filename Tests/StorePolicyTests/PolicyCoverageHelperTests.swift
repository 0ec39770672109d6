import Foundation
import Testing
@testable import StorePolicy
import TestPrerequisites

@Suite struct PolicyCoverageHelperTests {
    /// A function in another table (lines 2–7), a local helper (8–10), a helper nothing calls
    /// (11–13), and two hooks (15–19, 20–22), one with an inline comparison on line 17.
    static let policy = """
    local Format = {}
    function Format.price(amount)
        if amount == 0 then
            return "free"
        end
        return tostring(amount)
    end
    local function is_known(ctx)
        return ctx.customer.status_known
    end
    local function never_called()
        return 1
    end
    local policy = {}
    function policy.show_merchandising(ctx, placement)
        local order = { 3, 1 }
        table.sort(order, function(a, b) return a < b end)
        return is_known(ctx)
    end
    function policy.plan_icon(ctx, plan)
        return Format.price(0)
    end
    return policy
    """

    static let tests = """
    function test_both_hooks()
        expect_true(decide("show_merchandising", context{ customer = { status_known = true } }, "home"))
        expect_eq("free", policy.plan_icon(context{}, {}))
    end
    """

    private func coverage() throws -> PolicyCoverage {
        let folder = try TestFolders.make("storerules-coverage")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "policy_test.lua")
        try Self.tests.write(to: file, atomically: true, encoding: .utf8)
        let source = PolicySource(text: Self.policy, chunkName: "policy.lua")
        let coverage = PolicyCoverage(source: source)
        let outcomes = PolicyTestRunner(source: source, catalog: .empty).run(file: file, coverage: coverage)
        #expect(outcomes.allSatisfy { $0.passed }, "\(outcomes)")
        return coverage
    }

    @Test func everyFunctionIsListedHelpersIncludedWithTheLinesThatNeverRan() throws {
        let functions = try coverage().functions
        #expect(functions.map(\.name) == ["Format.price", "is_known", "never_called", "show_merchandising", "plan_icon"])
        #expect(functions.map(\.lines) == [2...7, 8...10, 11...13, 15...19, 20...22])
        let byName = Dictionary(uniqueKeysWithValues: functions.map { ($0.name, $0) })
        #expect(byName["Format.price"]?.linesNotRun == [6], "only the branch for a price other than 0")
        #expect(byName["Format.price"]?.linesRun == 2)
        #expect(byName["is_known"]?.linesNotRun == [])
        #expect(byName["never_called"]?.linesRun == 0, "a helper nothing calls is listed, never run")
        #expect(byName["never_called"]?.linesNotRun == [12])
        #expect(byName["show_merchandising"]?.linesNotRun == [], "the inline comparison on line 17 ran within its hook")
        #expect(byName["show_merchandising"]?.linesWithCode == 3)
    }

    @Test func theFileCountsTheLinesOfAHelperNothingCalls() throws {
        let coverage = try coverage()
        #expect(coverage.linesWithCode.contains(12))
        #expect(coverage.linesRun[12] == nil)
        #expect(coverage.total.linesWithCode - coverage.total.linesRun == 2, "lines 6 and 12 never ran")
    }
}
