import CommandLineOptions
import Foundation
import PostgresLedger
import ServiceCommandLine
import StorePolicy

/// `storerules policy publish|list|rollback`: the policy releases a fleet on one PostgreSQL
/// ledger serves.
enum PolicyCommand: Command {
    static let name = "policy"
    static let summary = "Publish, list and roll back the policy releases a fleet serves"

    static var help: String {
        """
        Usage: storerules policy publish DIR --ledger URL
               storerules policy list --ledger URL [--json]
               storerules policy rollback RELEASE|VERSION --ledger URL

        Releases live in the ledger's PostgreSQL database; instances started with
        `storerules serve --policy-from-ledger` serve the newest one and switch to each new one
        within a second of its publication.

        Commands:
        \(HelpText.subcommands(subcommands))

        Options:
        \(HelpText.options([ledgerOption, jsonFlag]))
        """
    }

    static let ledgerOption = CommandOption.value("ledger", "URL", help: "The ledger: a postgres:// or postgresql:// URL. Required.")
    static let jsonFlag = CommandOption.json(help: "Print the releases as JSON.")

    static let subcommands: [Subcommand] = [
        Subcommand("publish", arguments: "DIR", summary: "Compile and validate DIR's policy.lua with its catalog, run its "
                   + "*_test.lua, and only when all pass, release it.", options: [ledgerOption]),
        Subcommand("list", summary: "Every release, newest first: number, version, action, time.", options: [ledgerOption, jsonFlag]),
        Subcommand("rollback", arguments: "RELEASE|VERSION", summary: "Release again an earlier release, named by its "
                   + "number or by its version (a unique prefix of it will do).", options: [ledgerOption]),
    ]

    static let syntax = CommandSyntax(name, options: [], subcommands: subcommands)

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let command = try parsed.positional(0, "a policy command (see --help)")
        guard let given = parsed.value(ledgerOption.name) else { throw UsageError("missing --ledger URL") }
        guard case .postgres(let text) = try LedgerLocation.option(given) else {
            throw UsageError("policy releases live in a PostgreSQL ledger: --ledger takes a postgres:// URL, not the SQLite file '\(given)'")
        }
        let store: PolicyReleaseStore
        do {
            store = try PolicyReleaseStore(url: text)
        } catch {
            throw CommandFailure("the ledger: \(error)")
        }
        switch command {
        case "publish": return try publish(parsed, to: store)
        case "list": return try list(parsed, store)
        case "rollback":
            let version = try parsed.positional(1, "the RELEASE number or VERSION to roll back to")
            try parsed.expectPositionals(atMost: 2)
            do {
                let release = try store.rollBack(to: version)
                Output.line("policy rollback: release \(release.number), version \(release.version)")
            } catch let error as PolicyReleaseError {
                throw CommandFailure(error.description)
            }
            return 0
        default: throw UsageError("unknown policy command '\(command)'")
        }
    }

    /// Checks DIR's policy as `storerules test` does, then releases it.
    private static func publish(_ parsed: ParsedArguments, to store: PolicyReleaseStore) throws -> Int32 {
        let path = try parsed.positional(1, "the policy folder DIR")
        try parsed.expectPositionals(atMost: 2)
        let (folder, catalog) = try PolicyLoader.open(path)
        guard catalog != nil else {
            throw CommandFailure("\(path) has no .storekit catalog; a fleet grants and shows only what its catalog lists; nothing was published")
        }
        let source: PolicySource
        do {
            source = try folder.policySource()
            _ = try PolicyEngine(source: source, catalog: catalog.map(PolicyCatalog.init) ?? .empty)
        } catch {
            throw CommandFailure(error.description + "; nothing was published")
        }
        let runner = PolicyTestRunner(source: source, catalog: catalog.map(PolicyCatalog.init) ?? .empty)
        var failures: [String] = []
        var passed = 0
        for file in folder.testFiles {
            _ = runner.run(file: file, report: { outcome in
                if let failure = outcome.failure {
                    failures.append("\(outcome.file) › \(outcome.name): \(failure)")
                } else {
                    passed += 1
                }
            })
        }
        guard failures.isEmpty else {
            failures.forEach { Output.error("✘ " + $0) }
            throw CommandFailure("\(failures.count) test\(failures.count == 1 ? "" : "s") failed; nothing was published")
        }
        let version = PolicyVersion.of(source, catalog: catalog.map(PolicyCatalog.init) ?? .empty)
        if let latest = try store.latest(), latest.version == version {
            Output.line("policy publish: version \(version) already serves (release \(latest.number)); nothing was published")
            return 0
        }
        let catalogText = try folder.catalogURL.map { try String(contentsOf: $0, encoding: .utf8) }
        let release = try store.publish(version: version, script: source.text,
                                        catalogName: folder.catalogURL?.lastPathComponent, catalog: catalogText)
        Output.line("policy publish: release \(release.number), version \(release.version) (\(passed) tests passed)")
        return 0
    }

    private static func list(_ parsed: ParsedArguments, _ store: PolicyReleaseStore) throws -> Int32 {
        try parsed.expectPositionals(atMost: 1)
        let releases = try store.releases()
        if parsed.printsJSON {
            Output.line(try Output.json(releases))
            return 0
        }
        guard !releases.isEmpty else {
            Output.line("policy list: no releases yet; storerules policy publish DIR makes the first")
            return 0
        }
        Output.line("release\tversion\taction\treleased")
        for release in releases {
            Output.line("\(release.number)\t\(release.version)\t\(release.action.rawValue)\t"
                        + ISO8601DateFormatter().string(from: release.releasedAt))
        }
        return 0
    }
}
