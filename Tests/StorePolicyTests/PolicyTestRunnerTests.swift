import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import StorePolicy
import Testing
import TestPrerequisites

@Suite struct PolicyTestRunnerTests {
    private let policy = """
    local policy = {}
    function policy.show_merchandising(ctx, placement) return ctx.customer.status_known end
    function policy.plan_icon(ctx, plan) error("no icons today") end
    function policy.product_style(ctx, product) return "huge" end
    function policy.grant(ctx, tx, product) error("grants are down") end
    return policy
    """

    private func run(_ tests: String, selected: @escaping (String) -> Bool = { _ in true }) throws -> [PolicyTestRunner.Outcome] {
        let folder = try TestFolders.make("storerules-runner")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "policy_test.lua")
        try tests.write(to: file, atomically: true, encoding: .utf8)
        let runner = PolicyTestRunner(source: PolicySource(text: policy, chunkName: "policy.lua"), catalog: testCatalog)
        return runner.run(file: file, selected: selected)
    }

    @Test func decideGivesWhatAHostGetsTheDefaultTheFallbackAndItsReason() throws {
        let outcomes = try run("""
        function test_the_policy_decides()
            local shown, how = decide("show_merchandising", context{ customer = { status_known = true } }, "home")
            expect_eq(true, shown)
            expect_eq("policy", how.source)
        end
        function test_a_failing_display_hook_falls_back_with_the_reason()
            local icon, how = decide("plan_icon", context{}, "pass.premium")
            expect_nil(icon)
            expect_eq("fallback", how.source)
            expect_true(how.reason:find("no icons today", 1, true) ~= nil, how.reason)
        end
        function test_a_result_that_breaks_the_contract_falls_back_too()
            local style, how = decide("product_style", context{}, "pellets.box")
            expect_eq("regular", style)
            expect_eq("fallback", how.source)
        end
        function test_a_missing_hook_gives_its_default()
            local buttons, how = decide("store_buttons", context{}, "store")
            expect_eq("default", how.source)
            expect_eq("automatic", buttons.restore_purchases)
        end
        function test_a_failing_grant_raises()
            expect_error(function() decide("grant", context{}, transaction{ product_id = "pellets.box" }) end, "grants are down")
        end
        function test_a_mistyped_context_is_named()
            expect_error(function() decide("show_merchandising", { customer = { status_knwn = true } }, "home") end, "status_known")
        end
        """)
        #expect(outcomes.count == 6)
        for outcome in outcomes {
            #expect(outcome.passed, "\(outcome.name): \(outcome.failure ?? "")")
        }
    }

    @Test func onlySelectedTestsRunAndAFailureNamesItsFileAndLine() throws {
        let outcomes = try run("""
        function test_one() expect_eq(1, 1) end
        function test_two()
            expect_eq(1, 2)
        end
        function test_three() end
        """, selected: { $0 != "test_three" })
        #expect(outcomes.map(\.name) == ["test_one", "test_two"])
        #expect(outcomes.map(\.line) == [1, 2])
        let failed = try #require(outcomes.last)
        #expect(failed.failureFile == "policy_test.lua")
        #expect(failed.failureLine == 3)
        #expect(failed.failure?.contains("expected 1, got 2") == true)
    }

    @Test func whatATestPrintsStaysWithItsOutcome() throws {
        let outcomes = try run("""
        print("loading")
        function test_first() print("one") end
        function test_second() print("two", 2) print("three") end
        function test_quiet() end
        """)
        #expect(outcomes.map(\.output) == [["loading", "one"], ["two\t2", "three"], []])
    }

    @Test func aJUnitReportHoldsEveryTestWithItsFailureAndOutputEscaped() throws {
        var failing = PolicyTestRunner.Outcome(file: "policy_test.lua", name: "test_<b>&", line: 7, failure: "policy_test.lua:8: expected \"a\"\u{1}")
        failing.output = ["<printed> & done"]
        let passing = PolicyTestRunner.Outcome(file: "other_test.lua", name: "test_ok", line: 1)
        let xml = PolicyTestReport(outcomes: [failing, passing], folder: "Examples/Birds").junitXML()
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = JUnitCollector()
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(collector.testcases == [["name": "test_<b>&", "file": "Examples/Birds/policy_test.lua", "line": "7"],
                                        ["name": "test_ok", "file": "Examples/Birds/other_test.lua", "line": "1"]])
        #expect(collector.failureMessages == ["policy_test.lua:8: expected \"a\"\u{FFFD}"])
        #expect(collector.text.contains("<printed> & done"))
        #expect(collector.suites == 2)
    }

    @Test func theJSONReportIsOneObjectPerTestAndASummary() throws {
        let outcomes = [PolicyTestRunner.Outcome(file: "policy_test.lua", name: "test_a", line: 1),
                        PolicyTestRunner.Outcome(file: "policy_test.lua", name: "test_b", line: 2, failure: "no")]
        let lines = try PolicyTestReport(outcomes: outcomes, folder: "").jsonLines()
        #expect(lines.count == 3)
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects[0]["passed"] as? Bool == true)
        #expect(objects[1]["failure"] as? String == "no")
        let summary = try #require(objects[2]["summary"] as? [String: Any])
        #expect(summary["tests"] as? Int == 2)
        #expect(summary["failed"] as? Int == 1)
    }
}

/// The parts of a JUnit file the report test checks.
private final class JUnitCollector: NSObject, XMLParserDelegate {
    var testcases: [[String: String]] = []
    var failureMessages: [String] = []
    var suites = 0
    var text = ""

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch elementName {
        case "testcase": testcases.append(attributes.filter { ["name", "file", "line"].contains($0.key) })
        case "failure": failureMessages.append(attributes["message"] ?? "")
        case "testsuite": suites += 1
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }
}

@Suite struct PolicyCoverageTests {
    /// Lines 1–12; the tests below run `show_merchandising` (its code on lines 3, 4 and 6; lines
    /// 2 and 7 run when the policy loads) only down its first branch, and never `plan_icon`.
    private let policy = """
    local policy = {}
    function policy.show_merchandising(ctx, placement)
        if ctx.customer.status_known then
            return true
        end
        return false
    end
    function policy.plan_icon(ctx, plan)
        return "bird"
    end
    local unused = 1
    return policy
    """

    @Test func theLinesThatRanAreCountedAgainstTheLinesThatHoldCode() throws {
        let folder = try TestFolders.make("storerules-coverage")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "policy_test.lua")
        try """
        function test_known_customers_see_merchandising()
            expect_true(decide("show_merchandising", context{ customer = { status_known = true } }, "home"))
        end
        function test_twice_in_the_test_state()
            expect_true(policy.show_merchandising(context{ customer = { status_known = true } }, "home"))
        end
        """.write(to: file, atomically: true, encoding: .utf8)
        let source = PolicySource(text: policy, chunkName: "policy.lua")
        let coverage = PolicyCoverage(source: source)
        let outcomes = PolicyTestRunner(source: source, catalog: .empty).run(file: file, coverage: coverage)
        #expect(outcomes.allSatisfy { $0.passed })

        let functions = coverage.functions
        #expect(functions.map(\.name) == ["show_merchandising", "plan_icon"])
        #expect(functions.map(\.lines) == [2...7, 8...10])
        #expect(functions[0].linesWithCode == 3, "the if and both returns")
        #expect(functions[0].linesRun == 2, "the if and the first return")
        #expect(functions[1].linesRun == 0)
        #expect(functions[1].linesWithCode == 1)
        let run = coverage.linesRun
        #expect(run[3] == 2 && run[4] == 2, "once through decide's engine, once in the test state")
        #expect(run[5] == nil && run[6] == nil && run[9] == nil)
        #expect(coverage.linesWithCode == [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12])
        #expect(coverage.total.linesRun == 9, "lines 6 and 9 never ran")
        #expect(coverage.total.linesWithCode == 11)

        let lcov = coverage.lcov(path: "/policies/policy.lua")
        #expect(lcov.hasPrefix("TN:\nSF:/policies/policy.lua\n"))
        #expect(lcov.contains("DA:3,2\n") && lcov.contains("DA:9,0\n"))
        #expect(lcov.contains("LF:\(coverage.total.linesWithCode)\nLH:\(coverage.total.linesRun)\nend_of_record\n"))
    }
}
