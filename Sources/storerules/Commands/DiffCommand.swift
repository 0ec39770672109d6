import CommandLineOptions
import Foundation
import LuaBridge
import StorePolicy

/// `storerules diff OLD_DIR NEW_DIR`.
enum DiffCommand: Command {
    static let name = "diff"
    static let summary = "Run two versions of a policy over generated scenarios and print every decision that differs"
    static var help: String { """
    Usage: storerules diff OLD_DIR NEW_DIR [--placements P,...] [--hooks H,...] [--json] [--limit N]

    Runs both policies (each with its own folder's catalog, or OLD_DIR's when NEW_DIR has none)
    over a matrix of scenarios built from the catalogs and the policies' constants and prints,
    for each hook that changed, how many scenarios changed and the smallest of them as
    counterexamples: the context as `storerules eval DIR HOOK --input` reads it, the arguments
    as --arg takes them, and what each side decided. Hooks that did not change are listed as
    unchanged.

    The matrix: customers whose status is unknown; known with nothing; owning each
    non-consumable; holding a balance of each item the policies grant; each subscription in
    each state (subscribed, expired, in_billing_retry, in_grace_period, revoked), auto-renew on
    and off, intro-eligible or not; at the catalogs' storefronts and USA, GBR, JPN; with seed 0,
    or every seed from 0 to 99 for a hook either policy decides by seed. Display hooks are asked
    with every placement, group, product or view they apply to; grant with each consumable at
    quantities 1 and 5. A failure on one side where the other decides is a change.

    Then the values the two policies can tell apart, lexed from both policy.lua files and both
    folders' *_test.lua files: storefronts (strings of three capital letters), locales, the
    sandbox and production environments, each attribute and event name the files read or their
    test contexts set (attributes with every string, number, true and false; events with every
    positive whole number as a count and as an age in seconds), and balances of each granted
    item; every number with its neighbours n-1 and n+1. Each value is tried alone on the
    customer known with nothing and on a subscriber to each plan, at the first storefront, seed
    0: one dimension at a time, at most 100 values each. docs/policy-tools.md lists what this misses.

    Exits with 0 when nothing differs, 1 when something does, 2 on an error, 64 on a usage mistake.

    Options:
    \(HelpText.options(syntax.options))
    """ }

    static let placements = TypedOption<[String]>.value(
        "placements", "P,...", help: "The placements show_merchandising is asked at (default: those the tests use, or home,store).",
        reading: Self.names)
    static let hooks = TypedOption<[String]>.value(
        "hooks", "H,...", help: "The hooks compared (default: every known hook); a custom hook by name too; a typo names the nearest hook.",
        reading: Self.names)
    static let limit = TypedOption<Int>.value("limit", "N", help: "Counterexamples printed per changed hook (default 3).") {
        text throws(UsageError) in
        guard let value = Int(text), value >= 0 else { throw UsageError("--limit must be a whole number, not '\(text)'") }
        return value
    }
    static let jsonFlag = CommandOption.json(
        help: #"Print one object: {"scenarios", "seconds", "changed": [{"hook", "scenarios", "scenarios_changed", "#
            + #""examples": [{"input", "args", "old", "new"}]}], "unchanged": [...]}."#)

    static let syntax = CommandSyntax(name, options: [placements.option, hooks.option, limit.option, jsonFlag])

    /// The comma-separated names of `text`, blanks dropped.
    @Sendable private static func names(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Exits with 2 for a failure, which 1 (something differs) cannot mean; a usage mistake
    /// reaches the caller, which exits with 64 as for every command.
    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        do {
            return try compare(parsed)
        } catch let error as CommandFailure {
            Output.error("storerules diff: \(error.message)")
            return 2
        }
    }

    /// Runs the comparison and prints it; 0 when nothing differs, 1 when something does.
    static func compare(_ parsed: ParsedArguments) throws -> Int32 {
        let oldPath = try parsed.positional(0, "the old policy folder OLD_DIR")
        let newPath = try parsed.positional(1, "the new policy folder NEW_DIR")
        try parsed.expectPositionals(atMost: 2)
        let limit = try parsed.value(of: Self.limit) ?? 3
        let old = try side(oldPath, fallbackCatalog: nil)
        let new = try side(newPath, fallbackCatalog: old)
        let (hookNames, placementNames) = (try parsed.value(of: hooks), try parsed.value(of: placements))
        let report: PolicyDiff.Report
        do {
            report = try PolicyDiff(old: old, new: new).compare(hooks: hookNames, placements: placementNames, limit: limit)
        } catch {
            throw CommandFailure(error.description)
        }
        if parsed.printsJSON {
            Output.line(try Output.json(report))
        } else {
            Output.line(try describe(report))
        }
        return report.changed.isEmpty && report.experiments.isEmpty ? 0 : 1
    }

    /// A folder as one side: its policy, its catalog (or the fallback's), its tests.
    static func side(_ path: String, fallbackCatalog fallback: PolicyDiff.Side?) throws -> PolicyDiff.Side {
        let (folder, catalog) = try PolicyLoader.open(path)
        let source = try PolicyLoader.source(of: folder)
        let tests = folder.testFiles.compactMap { try? String(contentsOf: $0, encoding: .utf8) }
        guard let catalog else {
            return PolicyDiff.Side(source: source, catalog: fallback?.catalog ?? .empty, storefront: fallback?.storefront, tests: tests)
        }
        return PolicyDiff.Side(source: source, catalog: PolicyCatalog(catalog), storefront: catalog.storefront.countryCode, tests: tests)
    }

    /// The report as text: the matrix size and time, each changed hook with its
    /// counterexamples as `storerules eval` commands, then the unchanged hooks.
    static func describe(_ report: PolicyDiff.Report) throws -> String {
        var lines = ["\(report.scenarios) scenarios in \(PrintedDuration.text(report.seconds)): "
                     + (report.changed.isEmpty ? "no decision differs" : "\(report.changed.count) hook(s) changed")]
        for change in report.changed {
            lines.append("")
            lines.append("\(change.hook): \(change.scenariosChanged) of \(change.scenarios) scenarios changed")
            for example in change.examples {
                let command = ["storerules eval DIR \(change.hook) --input <(echo '\(try Output.json(example.input))')"]
                    + (try example.args.map { "--arg '\(try Output.json($0))'" })
                lines.append("  " + command.joined(separator: " "))
                lines.append("    old: \(try Output.json(example.old))")
                lines.append("    new: \(try Output.json(example.new))")
            }
        }
        if !report.unchanged.isEmpty {
            lines.append("")
            lines.append("unchanged: \(report.unchanged.joined(separator: ", "))")
        }
        for experiment in report.experiments {
            let phase = switch experiment.kind {
            case .added: "new, phase \(experiment.newPhase ?? "")"
            case .removed: "removed (phase \(experiment.oldPhase ?? "") ends)"
            case .changed: experiment.startsNewPhase
                ? "changed, new phase \(experiment.newPhase ?? "") (results start again)" : "changed, same phase \(experiment.newPhase ?? "")"
            }
            lines.append("experiment \(experiment.name): \(([phase] + experiment.details).joined(separator: "; "))")
        }
        return lines.joined(separator: "\n")
    }
}
