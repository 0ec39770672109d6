import CommandLineOptions
import Foundation
import PostgresLedger
import ServiceCommandLine
import StoreCore

/// `storerules ledger <command> ...`: feeds, reads, checks, copies and migrates a ledger, on
/// SQLite or PostgreSQL.
enum LedgerCommand: Command {
    static let name = "ledger"
    static let summary = "Ingest signed data into a ledger, read a customer, retry, check, copy or migrate it"
    static var help: String { """
    Usage: storerules ledger ingest DIR --ledger URL --root PEM... [--bundle-id ID] [--environment E]
                                    [--app-apple-id N] [--customer ID] [--app-store-key FILE
                                    --app-store-key-id ID --app-store-issuer-id ID [--app-store-url URL]]
                                    [FILE|-]
           storerules ledger customer ID --ledger URL [DIR] [--json]
           storerules ledger retry DIR --ledger URL
           storerules ledger consumption --ledger URL [--json]
           storerules ledger metrics [DIR] --ledger URL [--from DATE] [--to DATE] [--interval day|week|month]
                                     [--environment E] [--by product|storefront] [--customer ID] [--currency C --rates FILE]
                                     [--as-of TIME] [--json | --html OUT]
           storerules ledger check --ledger URL
           storerules ledger copy --from URL --to URL
           storerules ledger migrate --ledger URL
           storerules ledger reconcile DIR --ledger URL --root PEM... --bundle-id ID --environment E
                                       --app-store-key FILE --app-store-key-id ID --app-store-issuer-id ID
                                       [--app-store-url URL] [--since TIME] [--json]
           storerules ledger extend DIR --ledger URL --incident FILE --root PEM... --bundle-id ID --environment E
                                    [--dry-run] --app-store-key FILE --app-store-key-id ID --app-store-issuer-id ID
                                    [--app-store-url URL] [--json]

    Works on the ledger itself, the one a service, 'storerules store' or an app embedding the
    library keeps. A ledger URL is a SQLite file's path (created when missing) or a PostgreSQL
    database as a postgres:// or postgresql:// URL; opening a ledger brings its schema up to
    date. Any number of processes may ingest into one ledger at once: each transaction is
    stored before it is granted, and granted once.

    Commands, each with the options only it takes:
    \(subcommandHelp)

    'ingest' prints one JSON line per input line: "line", "transaction_id" or
    "notification_uuid", "outcome" (granted, already_finished, unfinished with "reason",
    revoked, revocation_withdrawn, processed, already_processed, or pending with "reason" when
    the customer is not known yet: kept, and processed by 'retry' once it is), "grants" and
    "customer"; a
    line that fails prints {"line": N, "error": {"kind", "message"}}, stores nothing, and
    makes the exit status 1 once every line is done. Blank lines are skipped. Given the App Store
    Server API's options, it then answers the refund requests that CONSUMPTION_REQUEST
    notifications brought, with DIR's consumption hook, and says on standard error what
    became of each ('ledger consumption' lists them).

    Options of several commands:
    \(HelpText.options([ledgerOption, jsonFlag]))
    """ }

    /// `--ledger` of every command but `copy`.
    static let ledger = ServiceOptionDeclarations.ledger.withHelp(
        "The ledger: a SQLite file's path, or a postgres:// or postgresql:// URL. Required.")
    static let ledgerOption = ledger.option
    /// `--from` and `--to` of `copy`.
    static let from = TypedOption<LedgerLocation>.value("from", "URL", help: "The ledger to copy. Required.") { text throws(UsageError) in
        try LedgerLocation.option(text, named: "--from")
    }
    static let to = TypedOption<LedgerLocation>.value(
        "to", "URL", help: "The empty ledger to copy into (a SQLite file is created). Required.") { text throws(UsageError) in
        try LedgerLocation.option(text, named: "--to")
    }

    /// `--json` of `customer`.
    static let jsonFlag = CommandOption.json(help: "Print JSON, the service's entitlements answer.")

    /// `--json` of `consumption`.
    static let consumptionJSONFlag = CommandOption.json(help: "Print a JSON array of the requests.")

    /// The ledger commands, each with its options.
    static let ledgerSubcommands: [Subcommand] = [
        Subcommand("ingest", arguments: "DIR [FILE|-]", summary: "Verify, store and grant one signed payload per "
                   + "line of FILE (standard input without it, or for -): a signed transaction, a notification's "
                   + #"signedPayload, or Apple's request body {"signedPayload": "…"}. DIR's policy grants."#, options: [
            ledgerOption, IngestOptions.root.option, IngestOptions.bundleID.option, IngestOptions.environment.option,
            IngestOptions.appAppleID.option, IngestOptions.customer.option,
        ] + AppStoreAPIOptionDeclarations.optional),
        Subcommand("customer", arguments: "ID [DIR]", summary: "What the customer owns now: entitlements, "
                   + "subscriptions by group, balances and unfinished transactions; with DIR, the features its "
                   + "policy unlocks.", options: [ledgerOption, jsonFlag, StoreClockOption.declaration.option]),
        Subcommand("retry", arguments: "DIR", summary: "Process the kept notifications whose customer is known now, "
                   + "then ask DIR's policy again for every unfinished transaction; one JSON line per transaction "
                   + "ingested or retried.", options: [ledgerOption]),
        Subcommand("consumption", summary: "The refund requests Apple asked about (CONSUMPTION_REQUEST), oldest "
                   + "first: the reason, the answer decided and sent, its state (pending, answered, unanswered, refused, "
                   + "expired), attempts and the last failure.", options: [ledgerOption, consumptionJSONFlag]),
        Subcommand("metrics", arguments: "[DIR]", summary: "The subscription business per day, week or month: active subscriptions "
                   + "and trials, MRR and its movement, new customers, trials and their conversion, renewals, churn, revenue, refunds "
                   + "(DIR's catalog gives the products' periods).", options: metricsOptions),
        Subcommand("check", summary: "Check the ledger's invariants: balances are grants minus reversals, only "
                   + "granted transactions have grants, every stored JWS matches its fields. One line per "
                   + "violation, exit status 1 when there is one.", options: [ledgerOption]),
        Subcommand("copy", summary: "Copy every record of one ledger into another, empty one, in one "
                   + "transaction: how a ledger moves from SQLite to PostgreSQL, or back.", options: [
            from.option, to.option,
        ]),
        Subcommand("migrate", summary: "Bring the ledger's schema up to date and say so.", options: [ledgerOption]),
        Subcommand("reconcile", arguments: "DIR", summary: "Catch up with the App Store after missed notifications: "
                   + "notification history since the ledger's checkpoint (failures first), then each touched customer's "
                   + "transaction history and subscription statuses, all through DIR's policy, granting nothing twice.",
                   options: reconcileOptions),
        Subcommand("extend", arguments: "DIR", summary: "Compensate an incident: DIR's renewal_extension hook decides the days "
                   + "each active subscriber it touched gets; the extensions are sent through the App Store Server API (a mass "
                   + "extension where every subscriber of a product gets the same), each once, and recorded in the ledger.",
                   options: extendOptions),
    ]

    static let syntax = CommandSyntax(name, options: [], subcommands: ledgerSubcommands)

    /// Each command's line and its options, `--ledger` and `--json` explained once below.
    static var subcommandHelp: String {
        HelpText.subcommands(ledgerSubcommands, ownOptionsBesides: ["ledger", CommandOption.jsonName])
    }

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let command = try parsed.positional(0, "a ledger command (see --help)")
        switch command {
        case "ingest": return try await ingest(parsed)
        case "consumption": return try consumption(parsed)
        case "metrics": return try metrics(parsed)
        case "customer": return try customer(parsed)
        case "retry": return try retry(parsed)
        case "check": return try check(parsed)
        case "copy": return try copy(parsed)
        case "migrate": return try migrate(parsed)
        case "reconcile": return try await reconcile(parsed)
        case "extend": return try await extend(parsed)
        default: throw UsageError("unknown ledger command '\(command)'")
        }
    }

    /// The location `option` (`--ledger` by default) gives; a usage error when it is missing.
    static func location(_ parsed: ParsedArguments, _ option: TypedOption<LedgerLocation> = ledger) throws(UsageError) -> LedgerLocation {
        try parsed.required(option)
    }
}
