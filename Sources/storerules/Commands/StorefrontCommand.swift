import CommandLineOptions
import Foundation
import PostgresLedger
import ServiceCommandLine
import StoreCore
import StorePolicy

/// `storerules storefront DIR --customer FILE|--ledger FILE|URL --customer-id ID [--placement P] [--json | --html OUT]`.
enum StorefrontCommand: Command {
    static let name = "storefront"
    static let summary = "Show what the storefront offers a customer, and why"
    static var help: String { """
    Usage: storerules storefront DIR --customer FILE|- [--placement P] [--json | --html OUT]
           storerules storefront DIR --ledger FILE|URL --customer-id ID [--store-state STATE] [--placement P]
                                 [--json | --html OUT]

    Builds the storefront plan for one customer at one placement: whether merchandising shows,
    the store's products (order, style, icon), each subscription group's plans visible for the
    customer's relationship to their current plan (icons, prices, offers when eligible, button
    labels), the store buttons, and a subscriber's status line — each part decided by DIR's
    policy over DIR's catalog.

    Options:
    \(HelpText.options(syntax.options))
    """ }

    static let customer = TypedOption<String>.text(
        "customer", "FILE|-", help: "The context JSON, as `storerules eval` reads it: a file, a pipe such as <(…), or - for stdin.")
    static let ledger = TypedOption<LedgerLocation>.value(
        "ledger", "FILE|URL", help: "Build the customer's context from a ledger, a SQLite file or a postgres:// or postgresql:// "
            + "URL: entitlements, subscription statuses, balances; at the local store's time for a ledger kept by `storerules store`."
    ) { text throws(UsageError) in try LedgerLocation.option(text) }
    static let customerID = TypedOption<String>.text("customer-id", "ID", help: "The customer whose context --ledger builds.")
    static let storeState = TypedOption<String>.text(
        "store-state", "STATE", help: "The state of the local store that keeps the ledger (default: the ledger's FILE.store.sqlite; "
            + "a PostgreSQL ledger is read as the store's only with it).")
    static let placement = TypedOption<String>.text("placement", "P", help: "Where the storefront shows (default: store).")
    static let jsonFlag = CommandOption.json(help: "Print the plan as JSON.")
    static let html = TypedOption<String>.text(
        "html", "OUT", help: "Write one self-contained HTML page: the storefront as a customer would see it and, beside it, the "
            + "hook decisions behind each part.")
    static let watchFlag = CommandOption.flag(
        "watch", help: "With --html, rewrite the page whenever policy.lua or the catalog changes (Ctrl-C stops).")

    static let syntax = CommandSyntax(name, options: [
        customer.option, ledger.option, customerID.option, storeState.option, placement.option, jsonFlag, html.option, watchFlag,
    ] + PolicyLoader.limitOptions)

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let path = try parsed.positional(0, "the policy folder DIR")
        try parsed.expectPositionals(atMost: 1)
        let engine = try PolicyLoader.engine(forFolder: path, limits: try PolicyLoader.limits(parsed))
        let context: PolicyContext
        switch (try parsed.value(of: customer), try parsed.value(of: ledger), try parsed.value(of: customerID)) {
        case (let customerPath?, nil, nil):
            context = try EvalCommand.decodeContext(try Output.read(customerPath))
        case (nil, let ledger?, let customerID?):
            context = try ledgerContext(folder: path, ledger: ledger, customerID: customerID, parsed: parsed)
        default:
            throw UsageError("give either --customer FILE, or --ledger FILE and --customer-id ID")
        }
        let placement = try parsed.value(of: Self.placement) ?? "store"
        var resolved = context
        resolved.customer.fillMissingGroupLevels(from: engine.catalog)

        let htmlPath = try parsed.value(of: html)
        func write() throws -> StorefrontPlan {
            let plan = engine.storefrontPlan(resolved, placement: placement)
            if let html = htmlPath {
                let page = StorefrontHTML.render(plan, title: "\(URL(fileURLWithPath: path).lastPathComponent) — \(placement)")
                do {
                    try page.write(to: URL(fileURLWithPath: html), atomically: true, encoding: .utf8)
                } catch {
                    throw CommandFailure("cannot write \(html): \(error.localizedDescription)")
                }
            }
            return plan
        }

        let plan = try write()
        if parsed.printsJSON {
            Output.line(try Output.json(plan, pretty: true))
        } else if let html = htmlPath {
            Output.line("wrote \(html)")
        } else {
            Output.line(plan.summary)
        }
        guard parsed.flag(watchFlag) else { return 0 }
        guard htmlPath != nil else { throw UsageError("--watch needs --html OUT") }
        let watcher = try PolicyWatcher(folder: path, engine: engine)
        while true {
            try await Task.sleep(for: .milliseconds(300))
            if let change = watcher.reloadIfChanged() {
                Output.line(change.message)
                _ = try write()
            }
        }
    }
}

/// The context of `customerID` as the ledger at `text` knows it: for a ledger the local store
/// keeps (`storerules store`: its state or its certificates are where ``StoreFiles`` puts
/// them), at the store's time, after it caught up; else now.
private func ledgerContext(folder: String, ledger location: LedgerLocation, customerID: String, parsed: ParsedArguments) throws -> PolicyContext {
    if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
        throw CommandFailure("no ledger at \(path)")
    }
    let (_, catalog) = try PolicyLoader.open(folder)
    do {
        let now: Date
        let ledger: Ledger
        let storeState = try parsed.value(of: StorefrontCommand.storeState)
        // A PostgreSQL ledger is the store's only when --store-state says where the store is.
        let keptByStore: Bool
        if case .postgres = location, storeState == nil {
            keptByStore = false
        } else {
            keptByStore = try StoreFiles(ledger: location, storeState: storeState).exist
        }
        if keptByStore {
            let store = try StoreSession(folderPath: folder, ledger: location, parsed: parsed).store
            now = try store.now()
            ledger = store.ledger
        } else {
            now = Date()
            ledger = try location.openForCommand(mustExist: true)
        }
        return PolicyContext(now: now, storefront: catalog?.storefront.countryCode ?? "USA",
                             locale: catalog?.localeIdentifier ?? "en_US",
                             customer: try CustomerContext(customerID: customerID, ledger: ledger, catalog: catalog, at: now))
    } catch let error as CommandFailure {
        throw error
    } catch let error as UsageError {
        throw error
    } catch {
        throw CommandFailure("\(location.displayName): \(error)")
    }
}
