import Foundation
import StoreCore
import StorePolicy

/// `storerules store DIR --ledger FILE <command> ...`: drives the local test store.
enum StoreCommand: Command {
    static let name = "store"
    static let summary = "Drive the local test store: purchases, renewals, refunds, notifications"
    static var help: String { """
    Usage: storerules store DIR --ledger FILE [--bundle-id ID] [--environment E] [--app-apple-id N]
                            <command> [arguments] [--json]

    Runs the local App Store for the products of DIR's .storekit catalog, for any number of
    customers. Every transaction, renewal info and App Store Server Notification V2 it makes is
    signed, verified and ingested into the ledger FILE, and DIR/policy.lua's grant hook decides
    what each transaction grants, seeing the customer as the ledger knows them at the store's
    time. The ledger keeps the store's state, so each command carries on where the last one
    stopped; the signing certificates live in FILE.certificates/.

    The store's clock is the system clock moved forward by every 'advance'. Before each command
    the store processes what its clock passed: renewals, failed renewals, grace periods and
    billing retry ending, expirations.

    Commands:
      purchase PRODUCT [--quantity N] [--offer ID] [--offer-code CODE]
                       [--app-account-token UUID] [--ask-to-buy on|off] [--cancel]
                                    Buy a product (an introductory offer applies by itself);
                                    --ask-to-buy overrides the setting, --cancel simulates the
                                    customer cancelling.
      requests                      List Ask to Buy requests.
      approve ID | decline ID       Answer an Ask to Buy request.
      advance DURATION              Move the clock forward by an ISO 8601 duration: P1M, P3D, PT2H.
      renew                         Renew a subscription now.
      expire                        End a subscription now.
      resolve                       Resolve a subscription's billing issue.
      auto-renew on|off             Turn a subscription's automatic renewal on or off.
      refund TRANSACTION_ID [--reason other|developer-issue]
                                    Refund a transaction.
      revoke TRANSACTION_ID         End Family Sharing of a purchase.
      family join FAMILY | family leave
                                    Put the customer in a family, or take them out.
      sync                          Restore the customer's purchases (deliver them again).
      status                        Each subscription's status as the ledger knows it: renewal
                                    state (subscribed, inGracePeriod, inBillingRetryPeriod,
                                    expired, revoked), period and grace period ends, renewal.
      entitlements                  Products the customer is entitled to (StoreKit's current
                                    entitlements), balances, and the features the policy unlocks.
      transactions                  Transactions in the ledger, with their grants and every
                                    signed version received.
      notifications [--after N]     The outbox of signed notifications.
      settings [--ask-to-buy on|off] [--billing-retry on|off] [--grace-period on|off]
               [--time-rate N] [--fail-purchases on|off] [--fail-offer-codes on|off]
               [--fail-sync on|off] [--reset]
                                    Show or override the catalog's test settings. The --fail
                                    options simulate StoreKit errors: every purchase, offer
                                    code redemption or sync fails and changes nothing (the
                                    catalog's _storeKitErrors slots Purchase, Offer Code Redeem
                                    Sheet and App Store Sync, and _failTransactionsEnabled).
      certificate                   Print the root certificate to trust, as PEM.

    Options:
      --ledger FILE           The ledger (created when missing). Required.
      --customer ID           The customer (default: "\(defaultCustomer)"). status, entitlements,
                              transactions, notifications and requests show every customer
                              without it.
      --group G               The subscription group of renew, expire, resolve and auto-renew
                              (default: the customer's only subscription group).
      --bundle-id ID          The app's bundle identifier (default: \(defaultBundleID)).
      --environment E         Xcode, Sandbox or Production (default: Xcode).
      --app-apple-id N        The app's Apple ID; required for Production.
      --json                  Print JSON; signed payloads appear in compact form under
                              "signed_transaction_info", "signed_renewal_info" and "signed_payload".
    \(PolicyLoader.limitHelp)
    """ }

    static let defaultCustomer = "default"
    static let defaultBundleID = "com.example.storerules"

    private static let options: Set<String> = Set([
        "ledger", "bundle-id", "environment", "app-apple-id", "customer", "group", "quantity", "offer", "offer-code",
        "app-account-token", "reason", "after", "ask-to-buy", "billing-retry", "grace-period", "time-rate",
        "fail-purchases", "fail-offer-codes", "fail-sync",
    ]).union(PolicyLoader.limitOptions)
    private static let flags: Set<String> = ["json", "cancel", "reset"]

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: options, flags: flags)
        let folderPath = try parsed.positional(0, "the policy folder DIR")
        guard let ledgerPath = parsed.value("ledger") else { throw UsageError("missing --ledger FILE") }
        let command = try parsed.positional(1, "a store command (see --help)")
        let session = try StoreSession(folderPath: folderPath, ledgerPath: ledgerPath, parsed: parsed)
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

    private static func perform(_ command: String, parsed: CommandLineArguments, session: StoreSession,
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
            output.purchase(result, customer: customer, productID: productID,
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
            let text = try argument("the DURATION (ISO 8601, such as P1M, P3D or PT2H)")
            guard let duration = StoreDuration(iso8601: text) else {
                throw UsageError("'\(text)' is not an ISO 8601 duration such as P1M, P3D or PT2H")
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
            try session.change(output) { try store.refund(transactionID: id, reason: reason) }
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

    private static func purchaseOptions(_ parsed: CommandLineArguments) throws -> Set<PurchaseOption> {
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

    private static func updateSettings(_ parsed: CommandLineArguments, store: LocalStore) throws {
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
