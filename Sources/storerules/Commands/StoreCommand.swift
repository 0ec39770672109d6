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
        let ledger = try parsed.required(Self.ledger)
        let command = try parsed.positional(1, "a store command (see --help)")
        let session = try StoreSession(folderPath: folderPath, ledger: ledger, parsed: parsed)
        let store = session.store
        let output = StoreOutput(json: parsed.printsJSON, orderID: { store.orderID(ofTransaction: $0) })
        if command == "api" {
            try parsed.expectPositionals(atMost: 2)
            return try await StoreAPICommand.serve(store, parsed: parsed)
        }
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
        let customerFilter = try parsed.value(of: Self.customer)
        let customer = customerFilter ?? defaultCustomer
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
            output.requests(try store.askToBuyRequests(customerID: customerFilter))
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
            let group = try session.group(of: customer, try parsed.value(of: group))
            try session.change(output) {
                switch command {
                case "renew": try store.forceRenewal(customer: customer, groupID: group)
                case "expire": try store.expireSubscription(customer: customer, groupID: group)
                default: try store.resolveBillingIssue(customer: customer, groupID: group)
                }
            }
        case "auto-renew":
            let enabled = try onOrOff(try argument("on or off"), "auto-renew")
            let group = try session.group(of: customer, try parsed.value(of: group))
            try session.change(output) { try store.setAutoRenew(enabled, customer: customer, groupID: group) }
        case "refund":
            let id = try argument("the TRANSACTION_ID to refund")
            let reason = try parsed.value(of: Self.reason) ?? .refundedForOtherReason
            let before = try session.lastNotificationSequence()
            try store.refund(transactionID: id, reason: reason)
            output.refunded(id, reversed: try store.ledger.reversedGrants(ofTransaction: id), now: try session.now(),
                            notifications: try store.notifications(after: before))
        case "refund-request":
            let id = try argument("the TRANSACTION_ID whose refund the customer asks for")
            let reason = try parsed.value(of: Self.refundRequestReason) ?? .unsatisfiedWithPurchase
            try session.change(output) { try store.requestRefund(transactionID: id, reason: reason) }
        case "refund-decline":
            let id = try argument("the TRANSACTION_ID whose refund request to decline")
            try session.change(output) { try store.declineRefund(transactionID: id) }
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
            output.status(try session.states(of: session.customers(customerFilter), at: now), now: now)
        case "entitlements":
            try noArguments()
            try session.catchUp()
            let states = try session.states(of: session.customers(customerFilter), at: try session.now())
            output.entitlements(try states.map { ($0, try session.features(of: $0)) }, single: customerFilter != nil)
        case "transactions":
            try noArguments()
            try session.catchUp()
            let ledger = store.ledger
            output.ledgerTransactions(try session.customers(customerFilter).flatMap {
                try ledger.transactions(customerID: $0).map { transaction in
                    (transaction, try ledger.grants(ofTransaction: transaction.id), try ledger.versions(ofTransaction: transaction.id))
                }
            })
        case "notifications":
            try noArguments()
            let after = try parsed.value(of: Self.after) ?? 0
            try session.catchUp()
            output.notifications(try store.notifications(customerID: customerFilter, after: after))
        case "settings":
            try noArguments()
            try session.catchUp()
            try updateSettings(parsed, store: store)
            if let url = try parsed.value(of: Self.notificationURL) { try store.setNotificationURL(url) }
            if let url = try parsed.value(of: Self.retentionURL) { try store.setRetentionURL(url) }
            output.settings(try store.settings(), notificationURL: try store.notificationURL(), retentionURL: try store.retentionURL())
        case "certificate":
            try noArguments()
            Output.line(store.authority.rootCertificate.pemRepresentation.trimmingCharacters(in: .newlines))
        case "api-key":
            try noArguments()
            try StoreAPICommand.makeKey(store, statePath: session.statePath, output: output)
        case "cancel-screen":
            let transactionID = try argument("the TRANSACTION_ID of the subscription to cancel")
            try session.catchUp()
            output.cancelScreen(try store.openCancelScreen(transactionID: transactionID))
        case "consumption":
            let transactionID = parsed.positionals.count > 2 ? try argument("the TRANSACTION_ID") : nil
            if transactionID == nil { try noArguments() }
            output.consumption(try store.consumptionRecords(transactionID: transactionID))
        default:
            throw UsageError("unknown store command '\(command)'")
        }
    }

    private static func purchaseOptions(_ parsed: ParsedArguments) throws -> Set<PurchaseOption> {
        var options: Set<PurchaseOption> = []
        if let quantity = try parsed.value(of: quantity) { options.insert(.quantity(quantity)) }
        if let offer = try parsed.value(of: offer) { options.insert(.promotionalOffer(offerID: offer)) }
        if let code = try parsed.value(of: offerCode) { options.insert(.offerCode(code)) }
        if let offer = try parsed.value(of: winBackOffer) { options.insert(.winBackOffer(offerID: offer)) }
        if let token = try parsed.value(of: appAccountToken) { options.insert(.appAccountToken(token)) }
        if let askToBuy = try parsed.value(of: purchaseAskToBuy) { options.insert(.simulatesAskToBuy(askToBuy)) }
        if parsed.flag(cancelFlag) { options.insert(.simulatesUserCancellation) }
        return options
    }

    private static func updateSettings(_ parsed: ParsedArguments, store: LocalStore) throws {
        if parsed.flag(resetFlag) { try store.resetSettings() }
        var changes: [(inout LocalStoreSettings) -> Void] = []
        if let value = try parsed.value(of: askToBuy) { changes.append { $0.askToBuyEnabled = value } }
        if let value = try parsed.value(of: billingRetry) { changes.append { $0.shouldEnterBillingRetryOnRenewal = value } }
        if let value = try parsed.value(of: gracePeriod) { changes.append { $0.billingGracePeriodIsEnabled = value } }
        if let rate = try parsed.value(of: timeRate) { changes.append { $0.timeRate = rate } }
        if let months = try parsed.value(of: winBackPaidMonths) { changes.append { $0.winBackCriteria.paidMonths = months } }
        if let range = try parsed.value(of: winBackMonthsSinceLapse) { changes.append { $0.winBackCriteria.monthsSinceLapse = range } }
        if let months = try parsed.value(of: winBackWaitMonths) { changes.append { $0.winBackCriteria.monthsBetweenOffers = months } }
        for (option, api) in [(failPurchases, StoreKitErrorSetting.API.purchase), (failOfferCodes, .offerCodeRedeemSheet),
                              (failSync, .appStoreSync)] {
            guard let fails = try parsed.value(of: option) else { continue }
            changes.append { settings in
                if fails { settings.simulatedFailures.insert(api) } else { settings.simulatedFailures.remove(api) }
            }
        }
        guard !changes.isEmpty else { return }
        try store.updateSettings { settings in changes.forEach { $0(&settings) } }
    }

    private static func onOrOff(_ text: String, _ what: String) throws(UsageError) -> Bool {
        switch text {
        case "on": return true
        case "off": return false
        default: throw UsageError("\(what) takes on or off, not '\(text)'")
        }
    }
}
