import CommandLineOptions

extension StoreCommand {
    /// The options every store command takes.
    static let storeOptions: [CommandOption] = [
        .value("ledger", "FILE|URL", help: "The ledger: a SQLite file (created when missing) or a postgres:// or "
               + "postgresql:// URL. Required."),
        .value("store-state", "STATE", help: "The store's own state, a SQLite file (created when missing; default: "
               + "the ledger's FILE.store.sqlite; required with a PostgreSQL ledger)."),
        .value("bundle-id", "ID", help: "The app's bundle identifier (default: \(defaultBundleID)). The store "
               + "state remembers the one it was created with; a different one is refused."),
        .value("environment", "E", help: "Xcode, Sandbox or Production, in any letter case (default: Xcode). The "
               + "store state remembers the one it was created with; a different one is refused."),
        .value("app-apple-id", "N", help: "The app's Apple ID; required for Production."),
    ] + PolicyLoader.limitOptions

    /// `--customer` of a command about one customer.
    static let customerOption = CommandOption.value(
        "customer", "ID", help: "The customer (default: \"\(defaultCustomer)\").")

    /// `--customer` of a listing, which shows every customer without it.
    static let customerFilterOption = CommandOption.value(
        "customer", "ID", help: "Only this customer's; every customer's without it.")

    /// `--group` of a subscription command.
    static let groupOption = CommandOption.value(
        "group", "G", help: "The subscription group (default: the customer's only subscription group).")

    /// `--json` of every command that prints a result.
    static let jsonFlag = CommandOption.flag(
        "json", help: #"Print JSON; signed payloads appear in compact form under "signed_transaction_info", "#
            + #""signed_renewal_info" and "signed_payload"."#)

    /// `on|off` options of `settings`, each with the setting it overrides.
    static let settingsOptions: [CommandOption] = [
        .value("ask-to-buy", "on|off", help: "Ask to Buy for every purchase."),
        .value("billing-retry", "on|off", help: "A renewal fails and enters billing retry."),
        .value("grace-period", "on|off", help: "A failed renewal keeps service through the billing grace period."),
        .value("time-rate", "N", help: "The catalog's time rate: how fast subscription periods pass."),
        .value("fail-purchases", "on|off", help: "Every purchase fails (the catalog's _storeKitErrors slot Purchase, "
               + "and _failTransactionsEnabled)."),
        .value("fail-offer-codes", "on|off", help: "Every offer code redemption fails (slot Offer Code Redeem Sheet)."),
        .value("fail-sync", "on|off", help: "Every sync fails (slot App Store Sync)."),
        .flag("reset", help: "Go back to the catalog's settings first."),
    ]

    /// The store commands, each with the options it takes besides ``storeOptions``.
    static let storeSubcommands: [Subcommand] = [
        Subcommand("purchase", arguments: "PRODUCT", summary: "Buy a product (an introductory offer applies by "
                   + "itself) and say what the policy granted, or why the grant is unfinished.", options: [
            customerOption,
            .value("quantity", "N", help: "How many of a consumable."),
            .value("offer", "ID", help: "A promotional offer of the subscription."),
            .value("offer-code", "CODE", help: "An offer code to redeem."),
            .value("app-account-token", "UUID", help: "The app's account token for the transaction."),
            .value("ask-to-buy", "on|off", help: "Override the Ask to Buy setting for this purchase."),
            .flag("cancel", help: "Simulate the customer cancelling."),
            jsonFlag,
        ]),
        Subcommand("requests", summary: "List Ask to Buy requests.", options: [customerFilterOption, jsonFlag]),
        Subcommand("approve", arguments: "ID", summary: "Approve an Ask to Buy request.", options: [jsonFlag]),
        Subcommand("decline", arguments: "ID", summary: "Decline an Ask to Buy request.", options: [jsonFlag]),
        Subcommand("advance", arguments: "DURATION", summary: "Move the clock forward: 1M, 3D, 2W, 1Y, 12H, or "
                   + "ISO 8601 such as P1M or PT2H.", options: [jsonFlag]),
        Subcommand("renew", summary: "Renew a subscription now.", options: [customerOption, groupOption, jsonFlag]),
        Subcommand("expire", summary: "End a subscription now.", options: [customerOption, groupOption, jsonFlag]),
        Subcommand("resolve", summary: "Resolve a subscription's billing issue.",
                   options: [customerOption, groupOption, jsonFlag]),
        Subcommand("auto-renew", arguments: "on|off", summary: "Turn a subscription's automatic renewal on or off.",
                   options: [customerOption, groupOption, jsonFlag]),
        Subcommand("refund", arguments: "TRANSACTION_ID", summary: "Refund a transaction and say which grants "
                   + "it reversed.", options: [
            .value("reason", "other|developer-issue", help: "Why (default: other)."),
            jsonFlag,
        ]),
        Subcommand("revoke", arguments: "TRANSACTION_ID", summary: "End Family Sharing of a purchase.", options: [jsonFlag]),
        Subcommand("family", arguments: "join FAMILY | family leave", summary: "Put the customer in a family, or "
                   + "take them out.", options: [customerOption, jsonFlag]),
        Subcommand("sync", summary: "Restore the customer's purchases (deliver them again).",
                   options: [customerOption, jsonFlag]),
        Subcommand("status", summary: "Each subscription's status as the ledger knows it: renewal state "
                   + "(subscribed, inGracePeriod, inBillingRetryPeriod, expired, revoked), period and grace period "
                   + "ends, renewal.", options: [customerFilterOption, jsonFlag]),
        Subcommand("entitlements", summary: "Products the customer is entitled to (StoreKit's current "
                   + "entitlements), balances, and the features the policy unlocks.",
                   options: [customerFilterOption, jsonFlag]),
        Subcommand("transactions", summary: "Transactions in the ledger, with their grants and every signed "
                   + "version received.", options: [customerFilterOption, jsonFlag]),
        Subcommand("notifications", summary: "The outbox of signed notifications.", options: [
            customerFilterOption,
            .value("after", "N", help: "Only those after sequence number N."),
            jsonFlag,
        ]),
        Subcommand("settings", summary: "Show or override the catalog's test settings. The --fail options "
                   + "simulate StoreKit errors: every purchase, offer code redemption or sync fails and changes "
                   + "nothing.", options: settingsOptions + [jsonFlag]),
        Subcommand("certificate", summary: "Print the root certificate to trust, as PEM."),
    ]

    static let syntax = CommandSyntax(name, options: storeOptions, subcommands: storeSubcommands,
                                      subcommandPosition: 1)

    /// Each command's own options, below its line in the command list: those besides
    /// `--customer`, `--group` and `--json`, which the options section explains once.
    static var subcommandHelp: String {
        let explainedOnce: Set<String> = ["customer", "group", "json"]
        return storeSubcommands.map { subcommand in
            let own = subcommand.options.filter { !explainedOnce.contains($0.name) }
            return HelpText.subcommands([subcommand]) + (own.isEmpty ? "" : "\n" + HelpText.options(own, indent: 6))
        }.joined(separator: "\n")
    }
}
