import CommandLineOptions
import Foundation
import StoreCore
import StoreJourneys
import StorePolicy

/// `storerules run DIR [--json] [--html OUT] [--watch] [--ledger FILE|URL [--store-state FILE]]`.
enum RunCommand: Command {
    static let name = "run"
    static let summary = "Play DIR/journey.json through the local store and show what the policy decides"
    static var help: String { """
    Usage: storerules run DIR [--json] [--html OUT] [--watch] [--ledger FILE|URL [--store-state FILE]]

    Plays the customer journey in DIR/journey.json against a fresh ledger and the local test
    store, with DIR's catalog and policy, and prints at each step what happened (purchases,
    renewals, refunds, notifications) and what the policy decided: whether the offer card
    shows, which plans the subscription store offers with their icons and offers, grants and
    balances, feature unlocks. Colours on a terminal; plain text when piped or with NO_COLOR.

    Steps ("action"): storefront, purchase, approve, decline, advance, settings, auto_renew,
    resolve_billing, expire, refund, reload, features; see Examples/BackyardBirds/journey.json.

    Options:
    \(HelpText.options(syntax.options))
    """ }

    static let jsonFlag = CommandOption.json(help: "One JSON object per step, one per line.")
    static let html = TypedOption<String>.text("html", "OUT", help: "Also write the storefront page of each step into the folder OUT.")
    static let watchFlag = CommandOption.flag("watch", help: "Reload policy.lua and the catalog before each step when either changed.")
    static let ledger = TypedOption<String>.text(
        "ledger", "URL", help: "Keep the ledger in URL: a SQLite file that must not exist (the store's state then goes in "
            + "FILE.store.sqlite and the signing certificates in FILE.certificates/), or a postgres:// or postgresql:// URL of a "
            + "database that holds no customer, with --store-state. By default all go in a temporary folder, removed when the run ends.")
    static let storeState = TypedOption<String>.text(
        "store-state", "FILE", help: "The local store's own state, a SQLite file that must not exist; its certificates go in "
            + "FILE.certificates/. Required with a PostgreSQL ledger.")

    static let syntax = CommandSyntax(name, options: [jsonFlag, html.option, watchFlag, ledger.option, storeState.option]
                                      + PolicyLoader.limitOptions)

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let path = try parsed.positional(0, "the policy folder DIR")
        try parsed.expectPositionals(atMost: 1)
        let (folder, _) = try PolicyLoader.open(path)
        let journeyURL = folder.url.appendingPathComponent("journey.json")
        let journey: Journey
        do {
            journey = try Journey(contentsOf: journeyURL)
        } catch let error as PolicyInputError {
            throw CommandFailure("\(journeyURL.path): \(error)")
        } catch {
            throw CommandFailure("cannot read \(journeyURL.path): \(error.localizedDescription)")
        }
        let workspace = try RunWorkspace(ledger: try parsed.value(of: ledger), storeState: try parsed.value(of: storeState))
        defer { workspace.removeTemporaryFolder() }
        let ledgerName = workspace.ledger.displayName
        let runner: JourneyRunner
        do {
            runner = try JourneyRunner(folder: folder, journey: journey, ledger: try workspace.ledger.openForCommand(),
                                       storeStatePath: workspace.storeStatePath,
                                       certificates: workspace.certificates,
                                       limits: try PolicyLoader.limits(parsed), print: { Output.error("[policy] " + $0) })
        } catch let error as PolicyError {
            throw CommandFailure(error.description)
        }
        if parsed.flag(watchFlag) {
            runner.watcher = PolicyWatcher(folder: folder, engine: runner.engine)
        }
        let htmlFolder = try parsed.value(of: html).map { URL(fileURLWithPath: $0) }
        if let htmlFolder {
            try FileManager.default.createDirectory(at: htmlFolder, withIntermediateDirectories: true)
        }
        let json = parsed.printsJSON
        let style = TerminalStyle.forStandardOutput
        if !json {
            Output.line(style.bold(journey.title))
            Output.line(style.dim("policy \(runner.engine.version) · ledger \(ledgerName)"))
        }
        var failures = 0
        runner.run { report in
            if report.error != nil { failures += 1 }
            if json {
                Output.line((try? Output.json(report)) ?? "{}")
            } else {
                Output.line(JourneyText.describe(report, style: style))
            }
            if let htmlFolder {
                let page = StorefrontHTML.render(report.plan, title: "\(journey.title) — step \(report.number): \(report.note ?? report.action)")
                let file = htmlFolder.appendingPathComponent(String(format: "step-%02d.html", report.number))
                try? page.write(to: file, atomically: true, encoding: .utf8)
            }
        }
        if !json, let htmlFolder {
            Output.line(style.dim("storefront pages in \(htmlFolder.path)"))
        }
        return failures == 0 ? 0 : 1
    }
}

/// A journey step as readable text.
enum JourneyText {
    static func describe(_ report: JourneyStepReport, style: TerminalStyle) -> String {
        var lines: [String] = [""]
        let date = report.date.formatted(.dateTime.year().month(.abbreviated).day())
        lines.append(style.bold(String(format: "%2d  ", report.number) + (report.note ?? report.action))
                     + "  " + style.dim("[\(report.action) · \(date)]"))
        func row(_ label: String, _ value: String) {
            lines.append("    " + style.dim(label.padding(toLength: 15, withPad: " ", startingAt: 0)) + value)
        }
        for event in report.events { row("store", event) }
        if let error = report.error { row("failed", style.red(error)) }
        for item in report.unfinished { row("unfinished", style.yellow(item)) }
        if !report.grants.isEmpty {
            row("granted", report.grants.map { "+\($0.amount) \($0.item)" }.joined(separator: ", "))
        }
        if !report.balances.isEmpty {
            row("balances", report.balances.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        let plan = report.plan
        row("offer card", plan.showMerchandising ? style.green("shown") + " at \(plan.placement)" : "hidden at \(plan.placement)")
        if let status = plan.statusLine { row("status", status) }
        for store in plan.subscriptionStores {
            let offered = store.plans.map { plan -> String in
                var text = plan.displayName
                if let icon = plan.icon { text += " [\(icon)]" }
                if let offer = plan.offer { text += " " + style.green(offer) }
                return text
            }
            let what = store.currentProductID == nil ? "plans" : "sheet offers"
            row(what, offered.isEmpty ? "nothing to offer" : offered.joined(separator: " · "))
            if let card = store.winBack {
                row("win back", "\(card.displayName) " + style.green(card.offer) + " (offer \(card.offerID))")
            }
        }
        row("features", report.features.isEmpty ? "none" : report.features.joined(separator: ", "))
        let fallbacks = plan.decisions.filter { $0.source == "fallback" }
        for note in fallbacks { row("fallback", style.yellow("\(note.hook) (\(note.subject)): \(note.reason ?? "")")) }
        return lines.joined(separator: "\n")
    }
}
