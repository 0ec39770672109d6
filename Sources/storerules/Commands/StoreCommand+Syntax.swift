import CommandLineOptions
import Foundation
import PostgresLedger
import ServiceCommandLine
import StoreCore
import StoreTesting

extension StoreCommand {
    /// `--ledger FILE|URL`.
    static let ledger = TypedOption<LedgerLocation>.value(
        "ledger", "FILE|URL", help: "The ledger: a SQLite file (created when missing) or a postgres:// or postgresql:// URL. Required."
    ) { text throws(UsageError) in try LedgerLocation.option(text) }
    /// `--store-state STATE`.
    static let storeState = TypedOption<String>.text(
        "store-state", "STATE", help: "The store's own state, a SQLite file (created when missing; default: the ledger's "
            + "FILE.store.sqlite; required with a PostgreSQL ledger).")
    /// `--bundle-id ID`.
    static let bundleID = TypedOption<String>.text(
        "bundle-id", "ID", help: "The app's bundle identifier (default: \(defaultBundleID)). The store state remembers the one it "
            + "was created with; a different one is refused.")
    /// `--environment E`: Xcode, Sandbox or Production.
    static let environment = TypedOption<AppStoreEnvironment>.value(
        "environment", "E", help: "Xcode, Sandbox or Production, in any letter case (default: Xcode). The store state remembers "
            + "the one it was created with; a different one is refused."
    ) { text throws(UsageError) in
        guard let environment = AppStoreEnvironment(spelling: text), [.xcode, .sandbox, .production].contains(environment) else {
            throw UsageError("--environment takes Xcode, Sandbox or Production (any letter case), not '\(text)'")
        }
        return environment
    }
    /// `--app-apple-id N`.
    static let appAppleID = TypedOption<Int64>.value("app-apple-id", "N", help: "The app's Apple ID; required for Production.") {
        text throws(UsageError) in
        guard let number = Int64(text), number > 0 else { throw UsageError("--app-apple-id must be a positive number") }
        return number
    }

    /// The options every store command takes.
    static let storeOptions: [CommandOption] = [ledger.option, storeState.option, bundleID.option, environment.option, appAppleID.option]
        + PolicyLoader.limitOptions

    /// `--customer` of a command about one customer.
    static let customer = TypedOption<String>.text("customer", "ID", help: "The customer (default: \"\(defaultCustomer)\").")
    static let customerOption = customer.option

    /// `--customer` of a listing, which shows every customer without it.
    static let customerFilterOption = customer.option.withHelp("Only this customer's; every customer's without it.")

    /// `--group` of a subscription command.
    static let group = TypedOption<String>.text(
        "group", "G", help: "The subscription group (default: the customer's only subscription group).")
    static let groupOption = group.option

    /// `--json` of every command that prints a result.
    static let jsonFlag = CommandOption.json(
        help: #"Print JSON; signed payloads appear in compact form under "signed_transaction_info", "#
            + #""signed_renewal_info" and "signed_payload"."#)

    /// An `on|off` option.
    static func onOff(_ name: String, help: String) -> TypedOption<Bool> {
        .value(name, "on|off", help: help) { text throws(UsageError) in
            switch text {
            case "on": return true
            case "off": return false
            default: throw UsageError("--\(name) takes on or off, not '\(text)'")
            }
        }
    }

    // `purchase`'s own options.
    static let quantity = TypedOption<Int>.value("quantity", "N", help: "How many of a consumable.") { text throws(UsageError) in
        guard let quantity = Int(text) else { throw UsageError("--quantity must be a whole number") }
        return quantity
    }
    static let offer = TypedOption<String>.text("offer", "ID", help: "A promotional offer of the subscription.")
    static let offerCode = TypedOption<String>.text("offer-code", "CODE", help: "An offer code to redeem.")
    static let winBackOffer = TypedOption<String>.text(
        "win-back-offer", "ID", help: "A win-back offer of the subscription, for a customer whose subscription lapsed.")
    static let appAccountToken = TypedOption<UUID>.value(
        "app-account-token", "UUID", help: "The app's account token for the transaction."
    ) { text throws(UsageError) in
        guard let token = UUID(uuidString: text) else { throw UsageError("--app-account-token must be a UUID") }
        return token
    }
    static let purchaseAskToBuy = onOff("ask-to-buy", help: "Override the Ask to Buy setting for this purchase.")
    static let cancelFlag = CommandOption.flag("cancel", help: "Simulate the customer cancelling.")

    /// `refund --reason`.
    static let refundRequestReason = TypedOption<ConsumptionRequestReason>.value(
        "reason", "R", help: "The customer's reason: unintended-purchase, fulfillment-issue, unsatisfied, legal or other, "
            + "or Apple's word for it such as UNINTENDED_PURCHASE (default: unsatisfied)."
    ) { text throws(UsageError) in
        if let known = ConsumptionRequestReason.knownValues.first(where: { $0.rawValue == text }) { return known }
        switch text {
        case "unintended-purchase": return .unintendedPurchase
        case "fulfillment-issue": return .fulfillmentIssue
        case "unsatisfied": return .unsatisfiedWithPurchase
        case "legal": return .legal
        case "other": return .other
        default: throw UsageError("--reason takes unintended-purchase, fulfillment-issue, unsatisfied, legal or other, not '\(text)'")
        }
    }
    static let reason = TypedOption<RevocationReason>.value("reason", "other|developer-issue", help: "Why (default: other).") {
        text throws(UsageError) in
        switch text {
        case "other": return .refundedForOtherReason
        case "developer-issue": return .refundedDueToIssue
        default: throw UsageError("--reason takes other or developer-issue, not '\(text)'")
        }
    }

    /// `notifications --after`.
    static let after = TypedOption<Int>.value("after", "N", help: "Only those after sequence number N.") { text throws(UsageError) in
        guard let number = Int(text), number >= 0 else { throw UsageError("--after must be a sequence number ≥ 0, not '\(text)'") }
        return number
    }

    // `settings`' options, each overriding one setting.
    static let askToBuy = purchaseAskToBuy.withHelp("Ask to Buy for every purchase.")
    static let billingRetry = onOff("billing-retry", help: "A renewal fails and enters billing retry.")
    static let gracePeriod = onOff("grace-period", help: "A failed renewal keeps service through the billing grace period.")
    static let timeRate = TypedOption<TimeRate>.value(
        "time-rate", "N", help: "The catalog's time rate: how fast subscription periods pass."
    ) { text throws(UsageError) in
        guard let raw = Int(text), let rate = TimeRate(rawValue: raw) else {
            throw UsageError("--time-rate must be one of \(TimeRate.allCases.map { String($0.rawValue) }.joined(separator: ", "))")
        }
        return rate
    }
    static let failPurchases = onOff(
        "fail-purchases", help: "Every purchase fails (the catalog's _storeKitErrors slot Purchase, and _failTransactionsEnabled).")
    static let failOfferCodes = onOff("fail-offer-codes", help: "Every offer code redemption fails (slot Offer Code Redeem Sheet).")
    static let failSync = onOff("fail-sync", help: "Every sync fails (slot App Store Sync).")
    static let resetFlag = CommandOption.flag("reset", help: "Go back to the catalog's settings first.")
    static let winBackPaidMonths = monthsSetting(
        "win-back-paid-months", help: "App Store Connect's criterion for every win-back offer: the customer paid for at least "
            + "N months (1 to 24, 36, 48 or 60); none leaves each offer's own.",
        allowed: Product.WinBackEligibility.allowedPaidMonths.contains, words: "1 to 24, 36, 48 or 60")
    static let winBackWaitMonths = monthsSetting(
        "win-back-wait-months", help: "App Store Connect's criterion: N months (2 to 24) after a lapse before the same "
            + "win-back offer is redeemed again; none leaves each offer's own.",
        allowed: Product.WinBackEligibility.allowedMonthsBetweenOffers.contains, words: "2 to 24")
    static let winBackMonthsSinceLapse = TypedOption<ClosedRange<Int>?>.value(
        "win-back-months-since-lapse", "MIN-MAX|none", help: "App Store Connect's criterion: the subscription lapsed between "
            + "MIN and MAX months ago (1 to 24); none leaves each offer's own."
    ) { text throws(UsageError) in
        if text == "none" { return nil }
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        let allowed = Product.WinBackEligibility.allowedMonthsSinceLapse
        guard bounds.count == 2, let minimum = bounds[0], let maximum = bounds[1], allowed.contains(minimum),
              allowed.contains(maximum), minimum <= maximum else {
            throw UsageError("--win-back-months-since-lapse takes MIN-MAX, two months from 1 to 24 with MIN no more than MAX, such as 1-12, or none, not '\(text)'")
        }
        return minimum...maximum
    }

    /// A number of months a win-back criterion allows, or `none`.
    private static func monthsSetting(_ name: String, help: String, allowed: @escaping @Sendable (Int) -> Bool,
                                      words: String) -> TypedOption<Int?> {
        TypedOption<Int?>.value(name, "N|none", help: help) { text throws(UsageError) in
            if text == "none" { return nil }
            guard let months = Int(text), allowed(months) else {
                throw UsageError("--\(name) takes \(words) months, or none, not '\(text)'")
            }
            return months
        }
    }

    /// `on|off` options of `settings`, each with the setting it overrides.
    /// `--notification-url URL|none`: where notifications are sent; `none` stops sending.
    static let notificationURL = urlSetting(
        "notification-url", help: "Send every notification from now on to URL as the App Store does (POST "
            + "{\"signedPayload\"}), retrying a failure 1, 12, 24, 48 and 72 hours later on the store's clock; none stops.")
    /// `--retention-url URL|none`: where the cancel screen asks for retention messages.
    static let retentionURL = urlSetting(
        "retention-url", help: "Ask URL for a retention message when a subscriber opens the cancel screen (cancel-screen), "
            + "as Apple's Retention Messaging does; none forgets it.")

    /// An `http(s)://` URL option that `none` clears.
    private static func urlSetting(_ name: String, help: String) -> TypedOption<URL?> {
        TypedOption<URL?>.value(name, "URL|none", help: help) { text throws(UsageError) in
            if text == "none" { return nil }
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
                throw UsageError("--\(name) must be an http:// or https:// URL, or none, not '\(text)'")
            }
            return url
        }
    }

    static let settingsOptions: [CommandOption] = [
        askToBuy.option, billingRetry.option, gracePeriod.option, timeRate.option, failPurchases.option, failOfferCodes.option,
        failSync.option, resetFlag, notificationURL.option, retentionURL.option, winBackPaidMonths.option,
        winBackMonthsSinceLapse.option, winBackWaitMonths.option,
    ]

    /// The store commands, each with the options it takes besides ``storeOptions``.
    static let storeSubcommands: [Subcommand] = [
        Subcommand("purchase", arguments: "PRODUCT", summary: "Buy a product (an introductory offer applies by "
                   + "itself) and say what the policy granted, or why the grant is unfinished.", options: [
            customerOption, quantity.option, offer.option, offerCode.option, winBackOffer.option, appAccountToken.option,
            purchaseAskToBuy.option, cancelFlag, jsonFlag,
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
            reason.option, jsonFlag,
        ]),
        Subcommand("refund-request", arguments: "TRANSACTION_ID", summary: "The customer asks for a refund: "
                   + "CONSUMPTION_REQUEST asks the server for consumption information; refund approves, refund-decline declines.",
                   options: [refundRequestReason.option, jsonFlag]),
        Subcommand("refund-decline", arguments: "TRANSACTION_ID", summary: "Decline the customer's refund request: REFUND_DECLINED.",
                   options: [jsonFlag]),
        Subcommand("cancel-screen", arguments: "TRANSACTION_ID", summary: "The subscriber opens the cancel screen: ask the "
                   + "retention URL as Apple's Retention Messaging does and say what the customer sees.", options: [jsonFlag]),
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
            customerFilterOption, after.option, jsonFlag,
        ]),
        Subcommand("settings", summary: "Show or override the catalog's test settings. The --fail options "
                   + "simulate StoreKit errors: every purchase, offer code redemption or sync fails and changes "
                   + "nothing.", options: settingsOptions + [jsonFlag]),
        Subcommand("certificate", summary: "Print the root certificate to trust, as PEM."),
        Subcommand("api", summary: "Serve the App Store Server API over the store's customers and data, signed with its "
                   + "chain, until SIGTERM or SIGINT; a client authenticates with a key from api-key.",
                   options: [StoreAPICommand.listen.option, StoreAPICommand.tlsCertificate.option, StoreAPICommand.tlsKey.option]),
        Subcommand("api-key", summary: "Make an App Store Server API key the api accepts: its issuer id, key id and .p8 file.",
                   options: [jsonFlag]),
        Subcommand("consumption", arguments: "[TRANSACTION_ID]", summary: "The consumption information the api received "
                   + "for refund requests, of one transaction or all.", options: [jsonFlag]),
    ]

    static let syntax = CommandSyntax(name, options: storeOptions, subcommands: storeSubcommands,
                                      subcommandPosition: 1)

    /// A store command's usage line starts with the policy folder the store sells from.
    static let subcommandInvocation = "storerules store DIR"

    /// Each command's own options, below its line in the command list: those besides
    /// `--customer`, `--group` and `--json`, which the options section explains once.
    static var subcommandHelp: String {
        HelpText.subcommands(storeSubcommands, ownOptionsBesides: ["customer", "group", CommandOption.jsonName])
    }
}
