import CommandLineOptions
import Foundation
import StorePolicy

/// `storerules test DIR`.
enum TestCommand: Command {
    static let name = "test"
    static let summary = "Run a policy folder's *_test.lua tests"
    static var help: String { """
    Usage: storerules test DIR [NAME_PATTERN...] [--coverage] [--lcov FILE] [--junit FILE] [--json]

    Runs every global function named test_* in DIR/*_test.lua, in the order they are defined,
    and prints one line per test (what a test prints, indented under it) and a final
    "N passed, N failed" line. Exits with status 1 when any test fails.

    With NAME_PATTERNs only the tests whose names match one run: a pattern with *, ? or [...]
    is a shell-style pattern for the whole name (test_grant_*), any other matches names that
    contain it (grant).

    --coverage prints, for each function of policy.lua (hooks, custom functions, local helpers,
    functions in other tables) and then for the file as a whole, how many of its lines that
    hold code ran during the tests (lines run by decide included), and for each function the
    lines that never ran; --lcov FILE writes the same as an lcov tracefile for editors and genhtml.

    Each test file sees:
      policy                 the table DIR/policy.lua returns
      CATALOG, NOW           the catalog (DIR/*.storekit) and the time of the run (epoch seconds)
      context{...}           a complete ctx: { now, storefront, locale, environment, customer =
                             { id, seed, status_known, entitlements, subscriptions, balances,
                             attributes } }; subscriptions entries get their group_level from
                             the catalog
      product(id), group(id) catalog entries, as hooks receive them
      transaction{...}       a transaction as grant receives it
      sorted_keys(t)         the keys of t in order, for stable loops
      expect_eq(expected, actual [, message]), expect_true, expect_false, expect_nil,
      expect_contains(list, item), expect_error(fn [, pattern])
      decide(hook, ctx, ...) the hook run as the engine runs it for a host: its result
                             validated, the default when the policy lacks a display hook, the
                             fallback when one fails; returns the result and
                             { source = "policy"|"default"|"fallback", reason = ... }

    Options:
    \(HelpText.options(syntax.options))
    """ }

    static let coverageFlag = CommandOption.flag(
        "coverage", help: "After the tests, print which lines of policy.lua ran: per function, helpers included, with the lines "
            + "that never ran; then in all.")
    static let lcov = TypedOption<String>.text(
        "lcov", "FILE", help: "Write the lines of policy.lua that ran as an lcov tracefile (SF, DA, LF, LH) to FILE.")
    static let junit = TypedOption<String>.text(
        "junit", "FILE", help: "Also write the outcomes as JUnit XML to FILE (a testsuite per file, a testcase per test).")
    static let jsonFlag = CommandOption.json(
        help: #"Print one JSON object per test ({"file", "name", "line", "passed", "failure", "output", …}) "#
            + #"and a last {"summary": {"tests", "passed", "failed", "seconds"}}, instead of text."#)

    static let syntax = CommandSyntax(name, options: [coverageFlag, lcov.option, junit.option, jsonFlag] + PolicyLoader.limitOptions)

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let path = try parsed.positional(0, "the policy folder DIR")
        let patterns = Array(parsed.positionals.dropFirst())
        let (folder, catalog) = try PolicyLoader.open(path)
        let source = try PolicyLoader.source(of: folder)
        let files = folder.testFiles
        guard !files.isEmpty else {
            throw CommandFailure("\(path) has no *_test.lua files")
        }
        let runner = PolicyTestRunner(source: source, catalog: catalog.map(PolicyCatalog.init) ?? .empty,
                                      limits: try PolicyLoader.limits(parsed))
        let json = parsed.printsJSON
        let lcovPath = try parsed.value(of: lcov)
        let style = TerminalStyle.forStandardOutput
        let lint = try lintOutcomes(source: source, catalog: catalog.map(PolicyCatalog.init) ?? .empty, json: json, style: style)
        var outcomes = lint
        let coverage = parsed.flag(coverageFlag) || lcovPath != nil ? PolicyCoverage(source: source) : nil
        for file in files {
            outcomes += runner.run(file: file, selected: { TestNamePattern.matches($0, any: patterns) }, coverage: coverage) { outcome in
                guard !json else { return }
                if let failure = outcome.failure {
                    Output.line(style.red("✘") + " \(outcome.file) › \(outcome.name)\n    \(failure)")
                } else {
                    Output.line(style.green("✔") + " \(outcome.file) › \(outcome.name)")
                }
                for line in outcome.output { Output.line("    " + line) }
            }
        }
        let report = PolicyTestReport(outcomes: outcomes, folder: path)
        if let junit = try parsed.value(of: junit) {
            do {
                try report.junitXML().write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                throw CommandFailure("cannot write \(junit): \(error.localizedDescription)")
            }
        }
        let summary = report.summary
        if json {
            for line in try report.jsonLines() { Output.line(line) }
        } else {
            Output.line("\(summary.passed) passed, \(summary.failed) failed")
        }
        if let coverage {
            if parsed.flag(coverageFlag), !json { Output.line(coverageTable(coverage)) }
            if let lcov = lcovPath {
                let policyPath = URL(fileURLWithPath: path).appendingPathComponent(coverage.chunkName).standardizedFileURL.path
                do {
                    try coverage.lcov(path: policyPath).write(toFile: lcov, atomically: true, encoding: .utf8)
                } catch {
                    throw CommandFailure("cannot write \(lcov): \(error.localizedDescription)")
                }
            }
        }
        if !patterns.isEmpty && outcomes.count == lint.count {
            throw CommandFailure("no test in \(path) matches \(patterns.joined(separator: " "))")
        }
        return summary.failed == 0 ? 0 : 1
    }
}

extension TestCommand {
    /// Each finding of the policy lint as a failed outcome, printed as tests are.
    static func lintOutcomes(source: PolicySource, catalog: PolicyCatalog, json: Bool, style: TerminalStyle) throws -> [PolicyTestRunner.Outcome] {
        let warnings: [String]
        do {
            warnings = try PolicyEngine(source: source, catalog: catalog).warnings
        } catch {
            return []
        }
        return warnings.map { warning in
            if !json { Output.line(style.red("✘") + " \(source.chunkName) › lint\n    \(warning)") }
            return PolicyTestRunner.Outcome(file: source.chunkName, name: "lint", failure: warning)
        }
    }

    /// Lines run over lines that hold code, per function of the policy (hooks, custom
    /// functions and helpers) with the lines that never ran, then the file.
    static func coverageTable(_ coverage: PolicyCoverage) -> String {
        func row(_ name: String, _ run: Int, _ lines: Int, notRun: [Int] = []) -> String {
            let percent = lines == 0 ? "—" : String(format: "%.0f%%", Double(run) * 100 / Double(lines))
            return "  " + name.padding(toLength: max(name.count, 34), withPad: " ", startingAt: 0)
                + String(format: " %5d / %-5d", run, lines) + " " + percent.padding(toLength: 4, withPad: " ", startingAt: 0)
                + (notRun.isEmpty ? "" : "   not run: " + lineList(notRun))
        }
        var lines = ["coverage of \(coverage.chunkName) (lines run / lines with code, and the lines that never ran)"]
        for function in coverage.functions {
            lines.append(row("\(function.name) (\(function.lines.lowerBound)–\(function.lines.upperBound))",
                             function.linesRun, function.linesWithCode, notRun: function.linesNotRun))
        }
        let total = coverage.total
        lines.append(row("total", total.linesRun, total.linesWithCode))
        return lines.joined(separator: "\n")
    }
}

extension TestCommand {
    /// Line numbers in order, runs of consecutive ones as a range: `12, 14–16`.
    static func lineList(_ numbers: [Int]) -> String {
        var runs: [ClosedRange<Int>] = []
        for number in numbers.sorted() {
            if let last = runs.last, last.upperBound + 1 == number {
                runs[runs.count - 1] = last.lowerBound...number
            } else {
                runs.append(number...number)
            }
        }
        return runs.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }.joined(separator: ", ")
    }
}

/// Which tests `storerules test DIR NAME_PATTERN...` runs.
enum TestNamePattern {
    /// Whether `name` matches one of `patterns` (every name when there are none): a pattern
    /// with `*`, `?` or `[` as a shell pattern for the whole name, another as a part of it.
    static func matches(_ name: String, any patterns: [String]) -> Bool {
        patterns.isEmpty || patterns.contains { pattern in
            pattern.contains(where: { "*?[".contains($0) }) ? fnmatch(pattern, name, 0) == 0 : name.contains(pattern)
        }
    }
}
