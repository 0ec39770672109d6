import CommandLineOptions
import Foundation
import StorePolicy

/// `storerules test DIR`.
enum TestCommand: Command {
    static let name = "test"
    static let summary = "Run a policy folder's *_test.lua tests"
    static var help: String { """
    Usage: storerules test DIR

    Runs every global function named test_* in DIR/*_test.lua, in the order they are defined,
    and prints one line per test and a final "N passed, N failed" line. Exits with status 1
    when any test fails.

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

    Options:
    \(HelpText.options(syntax.options))
    """ }

    static let syntax = CommandSyntax(name, options: PolicyLoader.limitOptions)

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let path = try parsed.positional(0, "the policy folder DIR")
        try parsed.expectPositionals(atMost: 1)
        let (folder, catalog) = try PolicyLoader.open(path)
        let source: PolicySource
        do {
            source = try folder.policySource()
        } catch {
            throw CommandFailure(error.description)
        }
        let files = folder.testFiles
        guard !files.isEmpty else {
            throw CommandFailure("\(path) has no *_test.lua files")
        }
        let runner = PolicyTestRunner(source: source, catalog: catalog.map(PolicyCatalog.init) ?? .empty,
                                      limits: try PolicyLoader.limits(parsed))
        let style = TerminalStyle.forStandardOutput
        var passed = 0
        var failed = 0
        for file in files {
            _ = runner.run(file: file, print: { Output.line("    " + $0) }) { outcome in
                if let failure = outcome.failure {
                    failed += 1
                    Output.line(style.red("✘") + " \(outcome.file) › \(outcome.name)\n    \(failure)")
                } else {
                    passed += 1
                    Output.line(style.green("✔") + " \(outcome.file) › \(outcome.name)")
                }
            }
        }
        Output.line("\(passed) passed, \(failed) failed")
        return failed == 0 ? 0 : 1
    }
}
