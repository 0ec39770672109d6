import CommandLineOptions
import Foundation
import PostgresLedger
import StoreCore
import StorePolicy
import StoreTesting

/// `storerules store DIR --ledger FILE|URL <command> ...`: drives the local test store.
enum StoreCommand: Command {
    static let name = "store"
    static let summary = "Drive the local test store: purchases, renewals, refunds, notifications"
    static var help: String { """
    Usage: storerules store DIR --ledger FILE|URL [--store-state STATE] [--bundle-id ID] [--environment E]
                            [--app-apple-id N] <command> [arguments] [--json]

    Runs the local App Store for the products of DIR's .storekit catalog, for any number of
    customers. Every transaction, renewal info and App Store Server Notification V2 it makes is
    signed, verified and ingested into the ledger, and DIR/policy.lua's grant hook decides
    what each transaction grants, seeing the customer as the ledger knows them at the store's
    time. The ledger is a SQLite FILE or a PostgreSQL database's postgres:// or postgresql://
    URL. The store keeps its own state apart from the ledger, in a SQLite file, so each command
    carries on where the last one stopped, and signs with certificates kept in a folder:
      - beside a ledger FILE: the state in FILE.store.sqlite (or --store-state STATE), the
        certificates in FILE.certificates/;
      - with a PostgreSQL URL: --store-state STATE is required, and the certificates are in
        STATE.certificates/.
    A ledger file made by an earlier version, which kept the store's state inside, hands it over
    to a new store state file.

    The store's clock is the system clock moved forward by every 'advance'. Before each command
    the store processes what its clock passed: renewals, failed renewals, grace periods and
    billing retry ending, expirations.

    Commands, each with the options only it takes:
    \(subcommandHelp)

    Options of every command:
    \(HelpText.options(storeOptions))

    Options of the commands that list them:
    \(HelpText.options([customerOption, groupOption, jsonFlag]))
      A listing (requests, status, entitlements, transactions, notifications) shows every
      customer without --customer. Another command's option is a usage error.
    """ }

    static let defaultCustomer = "default"
    static let defaultBundleID = "com.example.storerules"

    /// Where the store keeps its state when the command line does not say: beside the ledger.
    static func defaultStatePath(beside ledgerPath: String) -> String {
        ledgerPath + ".store.sqlite"
    }

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let folderPath = try parsed.positional(0, "the policy folder DIR")
        guard let ledger = parsed.value("ledger") else { throw UsageError("missing --ledger FILE|URL") }
        let command = try parsed.positional(1, "a store command (see --help)")
        let session = try StoreSession(folderPath: folderPath, ledger: LedgerLocation(ledger), parsed: parsed)
        let output = StoreOutput(json: parsed.flag("json"))
        do {
            try perform(command, parsed: parsed, session: session, output: output)
        } catch let error as LocalStoreError {
            throw CommandFailure(error.description)
        } catch let error as LedgerError {
            throw CommandFailure(error.description)
        }
        return 0
    }

    private static func perform(_ command: String, parsed: ParsedArguments, session: StoreSession,
                                output: StoreOutput) throws {
        let store = session.store
        let customer = parsed.value("customer") ?? defaultCustomer
        func argument(_ what: String) throws -> String {
            let value = try parsed.positional(2, what)
            try parsed.expectPositionals(atMost: 3)
            return value
        }
        func noArguments() throws { try parsed.expectPositionals(atMost: 2) }
        switch command {
        case "purchase":
            let productID = try argument("the PRODUCT to buy")
            let options = try purchaseOptions(parsed)
            let before = try session.lastNotificationSequence()
            let result = try store.purchase(productID, customer: customer, options: options)
            var grant: GrantOutcome?
            if case .success(let transaction) = result, let id = transaction.payload.transactionId {
                grant = try GrantOutcome(transactionID: id, ledger: store.ledger)
            }
            output.purchase(result, customer: customer, productID: productID, grant: grant,
                            notifications: try store.notifications(after: before))
        case "requests":
            try noArguments()
            try session.catchUp()
            output.requests(try store.askToBuyRequests(customerID: parsed.value("customer")))
        case "approve":
            let id = try argument("the Ask to Buy request ID")
            let before = try session.lastNotificationSequence()
            let transaction = try store.approveAskToBuy(id)
            output.approved(transaction, notifications: try store.notifications(after: before))
        case "decline":
            output.requests([try store.declineAskToBuy(try argument("the Ask to Buy request ID"))])
        case "advance":
            let text = try argument("the DURATION (such as 1M, 3D, 12H or P1M)")
            guard let duration = StoreDuration(shorthand: text) else {
                throw UsageError("'\(text)' is not a duration such as 1M, 3D, 2W, 1Y, 12H, P1M or PT2H")
            }
            let before = try session.lastNotificationSequence()
            try store.advance(by: duration)
            output.changes(now: try session.now(), notifications: try store.notifications(after: before))
        case "renew", "expire", "resolve":
            try noArguments()
            let group = try session.group(of: customer, parsed.value("group"))
            try session.change(output) {
                switch command {
                case "renew": try store.forceRenewal(customer: customer, groupID: group)
                case "expire": try store.expireSubscription(customer: customer, groupID: group)
                default: try store.resolveBillingIssue(customer: customer, groupID: group)
                }
            }
        case "auto-renew":
            let enabled = try onOff(try argument("on or off"), "auto-renew")
            let group = try session.group(of: customer, parsed.value("group"))
            try session.change(output) { try store.setAutoRenew(enabled, customer: customer, groupID: group) }
        case "refund":
            let id = try argument("the TRANSACTION_ID to refund")
            let reason = try revocationReason(parsed.value("reason"))
            let before = try session.lastNotificationSequence()
            try store.refund(transactionID: id, reason: reason)
            output.refunded(id, reversed: try store.ledger.reversedGrants(ofTransaction: id), now: try session.now(),
                            notifications: try store.notifications(after: before))
        case "revoke":
            let id = try argument("the TRANSACTION_ID whose sharing to revoke")
            try session.change(output) { try store.revokeFamilySharing(transactionID: id) }
        case "family":
            let action = try parsed.positional(2, "join FAMILY or leave")
            switch action {
            case "join":
                let family = try parsed.positional(3, "the FAMILY to join")
                try parsed.expectPositionals(atMost: 4)
                try session.change(output) { try store.joinFamily(customer: customer, familyID: family) }
            case "leave":
                try parsed.expectPositionals(atMost: 3)
                try session.change(output) { try store.leaveFamily(customer: customer) }
            default:
                throw UsageError("family takes 'join FAMILY' or 'leave', not '\(action)'")
            }
        case "sync":
            try noArguments()
            output.transactions(try store.sync(customer: customer), customer: customer)
        case "status":
            try noArguments()
            try session.catchUp()
            let now = try session.now()
            output.status(try session.states(of: session.customers(parsed.value("customer")), at: now), now: now)
        case "entitlements":
            try noArguments()
            try session.catchUp()
            let states = try session.states(of: session.customers(parsed.value("customer")), at: try session.now())
            output.entitlements(try states.map { ($0, try session.features(of: $0)) }, single: parsed.value("customer") != nil)
        case "transactions":
            try noArguments()
            try session.catchUp()
            let ledger = store.ledger
            output.ledgerTransactions(try session.customers(parsed.value("customer")).flatMap {
                try ledger.transactions(customerID: $0).map { transaction in
                    (transaction, try ledger.grants(ofTransaction: transaction.id), try ledger.versions(ofTransaction: transaction.id))
                }
            })
        case "notifications":
            try noArguments()
            let after = try parsed.value("after").map { text throws(UsageError) -> Int in
                guard let number = Int(text), number >= 0 else { throw UsageError("--after must be a sequence number ≥ 0") }
                return number
            } ?? 0
            try session.catchUp()
            output.notifications(try store.notifications(customerID: parsed.value("customer"), after: after))
        case "settings":
            try noArguments()
            try session.catchUp()
            try updateSettings(parsed, store: store)
            output.settings(try store.settings())
        case "certificate":
            try noArguments()
            Output.line(store.authority.rootCertificate.pemRepresentation.trimmingCharacters(in: .newlines))
        default:
            throw UsageError("unknown store command '\(command)'")
        }
    }

    private static func purchaseOptions(_ parsed: ParsedArguments) throws -> Set<PurchaseOption> {
        var options: Set<PurchaseOption> = []
        if let text = parsed.value("quantity") {
            guard let quantity = Int(text) else { throw UsageError("--quantity must be a whole number") }
            options.insert(.quantity(quantity))
        }
        if let offer = parsed.value("offer") { options.insert(.promotionalOffer(offerID: offer)) }
        if let code = parsed.value("offer-code") { options.insert(.offerCode(code)) }
        if let text = parsed.value("app-account-token") {
            guard let token = UUID(uuidString: text) else { throw UsageError("--app-account-token must be a UUID") }
            options.insert(.appAccountToken(token))
        }
        if let text = parsed.value("ask-to-buy") { options.insert(.simulatesAskToBuy(try onOff(text, "--ask-to-buy"))) }
        if parsed.flag("cancel") { options.insert(.simulatesUserCancellation) }
        return options
    }

    private static func updateSettings(_ parsed: ParsedArguments, store: LocalStore) throws {
        if parsed.flag("reset") { try store.resetSettings() }
        var changes: [(inout LocalStoreSettings) -> Void] = []
        if let text = parsed.value("ask-to-buy") {
            let value = try onOff(text, "--ask-to-buy")
            changes.append { $0.askToBuyEnabled = value }
        }
        if let text = parsed.value("billing-retry") {
            let value = try onOff(text, "--billing-retry")
            changes.append { $0.shouldEnterBillingRetryOnRenewal = value }
        }
        if let text = parsed.value("grace-period") {
            let value = try onOff(text, "--grace-period")
            changes.append { $0.billingGracePeriodIsEnabled = value }
        }
        if let text = parsed.value("time-rate") {
            guard let raw = Int(text), let rate = TimeRate(rawValue: raw) else {
                throw UsageError("--time-rate must be one of \(TimeRate.allCases.map { String($0.rawValue) }.joined(separator: ", "))")
            }
            changes.append { $0.timeRate = rate }
        }
        for (option, api) in [("fail-purchases", StoreKitErrorSetting.API.purchase),
                              ("fail-offer-codes", .offerCodeRedeemSheet), ("fail-sync", .appStoreSync)] {
            guard let text = parsed.value(option) else { continue }
            let fails = try onOff(text, "--" + option)
            changes.append { settings in
                if fails { settings.simulatedFailures.insert(api) } else { settings.simulatedFailures.remove(api) }
            }
        }
        guard !changes.isEmpty else { return }
        try store.updateSettings { settings in changes.forEach { $0(&settings) } }
    }

    private static func onOff(_ text: String, _ what: String) throws(UsageError) -> Bool {
        switch text {
        case "on": return true
        case "off": return false
        default: throw UsageError("\(what) takes on or off, not '\(text)'")
        }
    }

    private static func revocationReason(_ text: String?) throws(UsageError) -> RevocationReason {
        switch text {
        case nil, "other": return .refundedForOtherReason
        case "developer-issue": return .refundedDueToIssue
        case let other?: throw UsageError("--reason takes other or developer-issue, not '\(other)'")
        }
    }
}
