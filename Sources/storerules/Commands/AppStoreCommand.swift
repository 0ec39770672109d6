import AppStoreServerAPI
import CommandLineOptions
import Foundation
import ServiceCommandLine
import StoreCore

/// `storerules appstore <verb> …`: each call of the App Store Server API client, for support and
/// operators, against Apple or a local store's `api`, with a readable table or `--json`.
enum AppStoreCommand: Command {
    static let name = "appstore"
    static let summary = "Call the App Store Server API: transactions, history, statuses, refunds, orders, notifications, extensions"
    static var help: String { """
    Usage: storerules appstore <command> [arguments] --bundle-id ID --environment E --root PEM...
                               --app-store-key FILE --app-store-key-id ID --app-store-issuer-id ID
                               [--app-store-url URL] [--app-apple-id N] [--json]

    Talks to Apple's App Store Server API (or a local store's 'storerules store … api') as the
    app's server does, with the App Store Connect key's JWT. Every signed item answered is
    verified against the --root certificates before it is shown; a failure prints Apple's error
    code and message and exits 1.

    Commands, each with the options only it takes:
    \(subcommandHelp)

    Options of every command:
    \(HelpText.options(commonOptions))
    """ }

    static let root = ServiceOptionDeclarations.root.withHelp(
        "A PEM file of trusted root certificates (Apple Root CA - G3, or a local store's root). Repeat for several. Required.")
    static let bundleID = ServiceOptionDeclarations.bundleID.withHelp("The app's bundle identifier. Required.")
    static let environment = ServiceOptionDeclarations.environment.withHelp(
        "\(AppStoreEnvironment.knownSpellings), in any letter case: the environment of the app's data. Required.")
    static let jsonFlag = CommandOption.json(help: "Print JSON: each signed item with its decoded payload.")
    static let commonOptions: [CommandOption] = [root.option, bundleID.option, environment.option, ServiceOptionDeclarations.appAppleID.option]
        + AppStoreAPIOptionDeclarations.all + [jsonFlag]

    static let product = TypedOption<String>.repeatable("product", "ID", help: "Only this product (repeat for several).") { $0 }
    static let type = TypedOption<String>.repeatable(
        "type", "T", help: "Only this product type: AUTO_RENEWABLE, NON_RENEWABLE, CONSUMABLE, NON_CONSUMABLE (repeat for several)."
    ) { text throws(UsageError) in
        guard TransactionHistoryQuery.productTypeNames.contains(text.uppercased()) else {
            throw UsageError("--type must be one of \(TransactionHistoryQuery.productTypeNames.joined(separator: ", ")), not '\(text)'")
        }
        return text.uppercased()
    }
    static let sort = TypedOption<TransactionHistoryQuery.Sort>.value("sort", "ascending|descending", help: "The order of changes.") {
        text throws(UsageError) in
        guard let sort = TransactionHistoryQuery.Sort(rawValue: text.uppercased()) else {
            throw UsageError("--sort must be ascending or descending, not '\(text)'")
        }
        return sort
    }
    static let group = TypedOption<String>.repeatable("group", "ID", help: "Only this subscription group (repeat for several).") { $0 }
    static let ownership = TypedOption<String>.value("ownership", "purchased|family-shared", help: "Only purchased or only shared.") {
        text throws(UsageError) in
        switch text.lowercased() {
        case "purchased": return "PURCHASED"
        case "family-shared", "family_shared": return "FAMILY_SHARED"
        default: throw UsageError("--ownership must be purchased or family-shared, not '\(text)'")
        }
    }
    static let revoked = TypedOption<Bool>.value("revoked", "true|false", help: "Only revoked, or only unrevoked, transactions.") {
        text throws(UsageError) in
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default: throw UsageError("--revoked must be true or false, not '\(text)'")
        }
    }
    static let start = TypedOption<Date>.time("start", help: "From this time: ISO 8601, or milliseconds since 1970.")
    static let end = TypedOption<Date>.time("end", help: "Before this time: ISO 8601, or milliseconds since 1970.")
    static let revision = TypedOption<String>.text("revision", "R", help: "Continue after this revision (from an earlier answer).")
    static let version = TypedOption<Int>.count("version", in: 1...2, help: "The history endpoint's version (default 2).")
    static let status = TypedOption<Int>.repeatable("status", "N", help: "Only this status: 1 active … 5 revoked (repeat).") {
        text throws(UsageError) in
        guard let number = Int(text), (1...5).contains(number) else { throw UsageError("--status must be 1 to 5, not '\(text)'") }
        return number
    }
    static let notificationType = TypedOption<String>.text("type", "TYPE", help: "Only notifications of this type.")
    static let subtype = TypedOption<String>.text("subtype", "SUBTYPE", help: "Only notifications of this subtype.")
    static let transaction = TypedOption<String>.text("transaction", "ID", help: "Only notifications about this transaction's customer.")
    static let onlyFailures = CommandOption.flag("only-failures", help: "Only notifications that never reached the server.")
    static let days = TypedOption<Int>.count("days", in: 1...90, help: "Days to extend by, 1–90. Required.")
    static let reason = TypedOption<Int>.value("reason", "R", help: "Why: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage (or their words). Required.") {
        text throws(UsageError) in
        let words = ["undeclared": 0, "customer-satisfaction": 1, "other": 2, "service-issue": 3, "outage": 3]
        guard let code = Int(text).flatMap({ (0...3).contains($0) ? $0 : nil }) ?? words[text.lowercased()] else {
            throw UsageError("--reason must be 0–3, undeclared, customer-satisfaction, other or service-issue, not '\(text)'")
        }
        return code
    }
    static let requestID = TypedOption<String>.text("request-id", "ID", help: "The request's own id: the same id never extends twice. Required.")
    static let extendProduct = TypedOption<String>.text("product", "ID", help: "Every active subscriber of this product (a mass extension).")
    static let storefront = TypedOption<String>.repeatable("storefront", "CC", help: "Only in this storefront (repeat; all without).") { $0 }
    static let deliveryStatus = TypedOption<ConsumptionAnswer.DeliveryStatus>.value(
        "delivery-status", "S", help: "DELIVERED or an UNDELIVERED_… reason. Required."
    ) { text throws(UsageError) in
        guard let status = ConsumptionAnswer.DeliveryStatus(rawValue: text.uppercased()) else {
            let known = ConsumptionAnswer.DeliveryStatus.allCases.map(\.rawValue).sorted().joined(separator: ", ")
            throw UsageError("--delivery-status must be one of \(known), not '\(text)'")
        }
        return status
    }
    /// `--consumed`: any whole number is read, and the answer's validation says what is outside Apple's range.
    static let percentage = TypedOption<Int>.value("consumed", "MILLIUNITS", help: "How much was consumed, 0–100000.") {
        text throws(UsageError) in
        guard let value = Int(text) else { throw UsageError("--consumed must be a whole number, not '\(text)'") }
        return value
    }
    static let preference = TypedOption<ConsumptionAnswer.RefundPreference>.value(
        "preference", "P", help: "DECLINE, GRANT_FULL or GRANT_PRORATED."
    ) { text throws(UsageError) in
        guard let preference = ConsumptionAnswer.RefundPreference(rawValue: text.uppercased()) else {
            throw UsageError("--preference must be DECLINE, GRANT_FULL or GRANT_PRORATED, not '\(text)'")
        }
        return preference
    }
    static let sampleContent = CommandOption.flag("sample-content", help: "A free sample or trial was offered.")

    static let appStoreSubcommands: [Subcommand] = [
        Subcommand("transaction", arguments: "ID", summary: "One transaction.", options: commonOptions),
        Subcommand("history", arguments: "ID", summary: "Every transaction of the customer who made ID, page after page.",
                   options: commonOptions + [product.option, type.option, sort.option, group.option, ownership.option, revoked.option,
                                             start.option, end.option, revision.option, version.option]),
        Subcommand("statuses", arguments: "ID", summary: "The customer's subscriptions by group, with their status.",
                   options: commonOptions + [status.option]),
        Subcommand("refunds", arguments: "ID", summary: "The customer's refunded transactions.", options: commonOptions + [revision.option]),
        Subcommand("lookup", arguments: "ORDER_ID", summary: "The transactions of an order id from a customer's receipt.",
                   options: commonOptions),
        Subcommand("notifications", summary: "Notification history, page after page, with each send attempt.",
                   options: commonOptions + [start.option, end.option, notificationType.option, subtype.option, transaction.option, onlyFailures]),
        Subcommand("test-notification", summary: "Ask for a TEST notification and show it with its send attempts.", options: commonOptions),
        Subcommand("extend", arguments: "[ORIGINAL_ID]", summary: "Extend one subscriber's renewal date, or with --product every "
                   + "active subscriber's; then show the mass extension's status.",
                   options: commonOptions + [days.option, reason.option, requestID.option, extendProduct.option, storefront.option]),
        Subcommand("consumption", arguments: "ID", summary: "Answer a refund request with consumption information (v2), held "
                   + "to the rules a policy's consumption answer is held to: what the hook would be refused is refused, and nothing is sent.",
                   options: commonOptions + [deliveryStatus.option, percentage.option, preference.option, sampleContent]),
        Subcommand("app-account-token", arguments: "ORIGINAL_ID UUID", summary: "Attach an app account token to a purchase.",
                   options: commonOptions),
        Subcommand("app-transaction", arguments: "ID", summary: "The customer's app transaction.", options: commonOptions),
    ]

    static let syntax = CommandSyntax(name, options: [], subcommands: appStoreSubcommands)

    /// Each command's line and its own options; the common ones are explained once below.
    static var subcommandHelp: String {
        HelpText.subcommands(appStoreSubcommands, ownOptionsBesides: Set(commonOptions.map(\.name)))
    }

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let command = try parsed.positional(0, "an appstore command (see --help)")
        guard appStoreSubcommands.contains(where: { $0.name == command }) else { throw UsageError("unknown appstore command '\(command)'") }
        let client = try makeClient(parsed)
        let output = AppStoreOutput(json: parsed.printsJSON)
        do {
            try await perform(command, parsed: parsed, client: client, output: output)
        } catch let error as AppStoreServerAPIError {
            throw CommandFailure(error.description)
        }
        return 0
    }

    private static func makeClient(_ parsed: ParsedArguments) throws -> AppStoreServerAPIClient {
        let rootPaths = try parsed.values(of: root)
        guard !rootPaths.isEmpty else { throw UsageError("missing --root PEM: every signed item answered is verified") }
        let verifier: SignedDataVerifier
        do {
            verifier = try SignedDataVerifier(
                rootCertificates: try rootPaths.flatMap(VerifyCommand.rootCertificates(at:)), bundleId: try parsed.required(bundleID),
                appAppleId: try parsed.value(of: ServiceOptionDeclarations.appAppleID), environment: try parsed.required(environment))
        } catch let error as VerifierConfigurationError {
            throw UsageError(error.description)
        }
        do {
            return try AppStoreAPIOptionDeclarations.client(parsed, verifier: verifier)
        } catch let error as AppStoreServerAPIKeyError {
            throw CommandFailure(error.description)
        } catch let error as AppStoreServerAPIError {
            throw UsageError(error.description)
        }
    }

    private static func perform(_ command: String, parsed: ParsedArguments, client: AppStoreServerAPIClient, output: AppStoreOutput) async throws {
        func argument(_ index: Int, _ what: String) throws -> String {
            try parsed.positional(index, what)
        }
        switch command {
        case "transaction":
            try parsed.expectPositionals(atMost: 2)
            output.transactions([try await client.transactionInfo(try argument(1, "the transaction ID"))])
        case "history":
            try parsed.expectPositionals(atMost: 2)
            let query = TransactionHistoryQuery(
                startDate: try parsed.value(of: start), endDate: try parsed.value(of: end), productIDs: try parsed.values(of: product),
                productTypes: try parsed.values(of: type), sort: try parsed.value(of: sort), subscriptionGroupIdentifiers: try parsed.values(of: group),
                inAppOwnershipType: try parsed.value(of: ownership), revoked: try parsed.value(of: revoked))
            var pages: [TransactionHistoryPage] = []
            for try await page in client.transactionHistory(try argument(1, "the transaction ID"), query: query, from: try parsed.value(of: revision),
                                                            version: try parsed.value(of: version) ?? 2) {
                pages.append(page)
            }
            output.history(pages)
        case "statuses":
            try parsed.expectPositionals(atMost: 2)
            output.statuses(try await client.subscriptionStatuses(try argument(1, "the transaction ID"), statuses: try parsed.values(of: status)))
        case "refunds":
            try parsed.expectPositionals(atMost: 2)
            var pages: [TransactionHistoryPage] = []
            for try await page in client.refundHistory(try argument(1, "the transaction ID"), from: try parsed.value(of: revision)) {
                pages.append(page)
            }
            output.history(pages)
        case "lookup":
            try parsed.expectPositionals(atMost: 2)
            output.order(try await client.lookUpOrder(try argument(1, "the ORDER_ID")))
        case "notifications":
            try parsed.expectPositionals(atMost: 1)
            // The default window is around the server's time, which is the local store's clock when
            // it is the server: notifications it sent after an `advance` are inside it.
            let givenStart = try parsed.value(of: start)
            let givenEnd = try parsed.value(of: end)
            let serverNow = givenStart != nil && givenEnd != nil ? Date() : try await client.serverNow()
            let request = NotificationHistoryRequest(
                startDate: (givenStart ?? serverNow.addingTimeInterval(-30 * 86_400)).millisecondsSince1970,
                endDate: (givenEnd ?? serverNow.addingTimeInterval(86_400)).millisecondsSince1970,
                notificationType: try parsed.value(of: notificationType), notificationSubtype: try parsed.value(of: subtype),
                transactionId: try parsed.value(of: transaction), onlyFailures: parsed.flag(onlyFailures) ? true : nil)
            output.notifications(try await client.notificationHistory(request).collect(\.items))
        case "test-notification":
            try parsed.expectPositionals(atMost: 1)
            output.notifications([try await client.testNotificationStatus(try await client.requestTestNotification())])
        case "extend":
            try parsed.expectPositionals(atMost: 2)
            let days = try parsed.required(days)
            let reason = try parsed.required(reason)
            let requestID = try parsed.required(requestID)
            if let productID = try parsed.value(of: extendProduct) {
                guard parsed.positionals.count == 1 else { throw UsageError("extend takes an ORIGINAL_ID or --product, not both") }
                let storefronts = try parsed.values(of: storefront)
                let identifier = try await client.extendRenewalDateForAllActiveSubscribers(MassExtendRenewalDateRequest(
                    extendByDays: days, extendReasonCode: reason, requestIdentifier: requestID,
                    storefrontCountryCodes: storefronts.isEmpty ? nil : storefronts, productId: productID))
                output.massExtension(try await client.massExtensionStatus(productID: productID, requestIdentifier: identifier))
            } else {
                let original = try argument(1, "the ORIGINAL_ID to extend, or --product")
                let answer = try await client.extendRenewalDate(
                    originalTransactionID: original, ExtendRenewalDateRequest(extendByDays: days, extendReasonCode: reason, requestIdentifier: requestID))
                let statuses = try? await client.subscriptionStatuses(original)
                let subscription = statuses?.groups.flatMap(\.subscriptions).first { $0.originalTransactionID == original }
                output.extension(answer, requestID: requestID, renews: subscription?.transaction.payload.expiresDate)
            }
        case "consumption":
            try parsed.expectPositionals(atMost: 2)
            let id = try argument(1, "the transaction ID")
            try await sendConsumption(parsed, transactionID: id, client: client)
            output.done("Consumption information for \(id) sent.")
        case "app-account-token":
            try parsed.expectPositionals(atMost: 3)
            let original = try argument(1, "the ORIGINAL_ID")
            let text = try argument(2, "the UUID")
            guard let token = UUID(uuidString: text) else { throw UsageError("'\(text)' is not a UUID") }
            try await client.setAppAccountToken(token, originalTransactionID: original)
            output.done("App account token \(token.uuidString.lowercased()) set on \(original).")
        default:
            try parsed.expectPositionals(atMost: 2)
            output.appTransaction(try await client.appTransactionInfo(try argument(1, "the transaction ID")))
        }
    }
}
