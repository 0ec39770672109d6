import Foundation
import LuaBridge
import StoreCore
import SQLiteLedger
import StorePolicy
import StoreTesting

/// Plays a ``Journey`` against a fresh ledger and the local test store, with a policy
/// folder's catalog and policy deciding grants and everything the storefront shows.
public final class JourneyRunner {
    /// The journey.
    public let journey: Journey
    /// The policy engine; steps that reload swap its policy.
    public let engine: PolicyEngine
    /// The store the journey drives.
    public let store: LocalStore
    /// Reloads `policy.lua` before each step when it changed (`--watch`).
    public var watcher: PolicyWatcher?

    private let folder: PolicyFolder
    private let catalog: Catalog
    private let storeNow: StoreTime
    private var lastNotification = 0

    /// Prepares a run of `journey` with `folder`'s catalog and policy, into `ledger` (on any
    /// storage; it must hold no customer yet), keeping the store's state in `storeStatePath`
    /// (which must not exist yet) and the signing chain in `certificates`.
    public init(folder: PolicyFolder, journey: Journey, ledger: Ledger, storeStatePath: String, certificates: URL,
                limits: LuaLimits = .default, print: @escaping LuaState.PrintHandler = { _ in }) throws {
        guard let catalog = try folder.loadCatalog() else {
            throw PolicyError(kind: .unreadable, reason: "\(folder.url.path) has no .storekit catalog to run a journey with")
        }
        if FileManager.default.fileExists(atPath: storeStatePath) {
            throw PolicyError(kind: .badRequest, reason: "\(storeStatePath) exists; a journey starts from a fresh ledger and store")
        }
        guard try ledger.customers().isEmpty else {
            throw PolicyError(kind: .badRequest, reason: "the ledger holds customers; a journey starts from a fresh ledger and store")
        }
        self.folder = folder
        self.journey = journey
        self.catalog = catalog
        engine = try PolicyEngine(source: folder.policySource(), catalog: PolicyCatalog(catalog), limits: limits, print: print)
        let authority = try SigningAuthority.loadOrCreate(in: certificates)
        let storeNow = StoreTime(journey.start ?? Date())
        self.storeNow = storeNow
        store = try LocalStore(
            catalog: catalog, authority: authority, ledger: ledger, state: try Database(path: storeStatePath),
            configuration: .init(bundleID: "com.example.storerules.journey", clock: .manual(startingAt: storeNow.date)),
            decide: engine.grantDecision(for: ledger, catalog: catalog, storeTime: storeNow))
    }

    /// Runs every step in order, handing each report to `report` as it is made.
    @discardableResult
    public func run(report: (JourneyStepReport) -> Void = { _ in }) -> [JourneyStepReport] {
        var reports: [JourneyStepReport] = []
        for (index, step) in journey.steps.enumerated() {
            let made = perform(step, number: index + 1)
            reports.append(made)
            report(made)
        }
        return reports
    }

    /// The policy's view of `customerID` now.
    public func context(for customerID: String) throws -> PolicyContext {
        let now = try store.now()
        return PolicyContext(now: now, storefront: catalog.storefront.countryCode, locale: catalog.localeIdentifier,
                             environment: .xcode,
                             customer: try CustomerContext(customerID: customerID, ledger: store.ledger, catalog: catalog, at: now))
    }

    private func perform(_ step: Journey.Step, number: Int) -> JourneyStepReport {
        let customerID = step.customer ?? journey.customer
        var events: [String] = []
        if let change = watcher?.reloadIfChanged() { events.append(change.message) }
        var failure: String?
        let before = Set(((try? store.transactions(customerID: customerID)) ?? []).compactMap(\.payload.transactionId))
        var placement = journey.placement
        do {
            storeNow.date = try store.now()
            switch step.action {
            case .storefront(let shown):
                placement = shown
            case let .purchase(product, quantity, offer, offerCode, winBackOffer):
                var options: Set<PurchaseOption> = quantity != 1 ? [.quantity(quantity)] : []
                if let offer { options.insert(.promotionalOffer(offerID: offer)) }
                if let offerCode { options.insert(.offerCode(offerCode)) }
                if let winBackOffer { options.insert(.winBackOffer(offerID: winBackOffer)) }
                switch try store.purchase(product, customer: customerID, options: options) {
                case .success(let transaction):
                    events.append("purchased \(product)" + (quantity != 1 ? " × \(quantity)" : "")
                                  + " (transaction \(transaction.payload.transactionId ?? "?"))")
                case .pending(let request):
                    events.append("waiting for approval: Ask to Buy request \(request.id)")
                case .userCancelled:
                    events.append("cancelled")
                }
            case .approve, .decline:
                guard let request = try store.askToBuyRequests(customerID: customerID).first(where: { $0.state == .pending }) else {
                    throw PolicyError(kind: .badRequest, reason: "\(customerID) has no pending Ask to Buy request")
                }
                if step.action == .approve {
                    _ = try store.approveAskToBuy(request.id)
                    events.append("approved Ask to Buy request \(request.id)")
                } else {
                    _ = try store.declineAskToBuy(request.id)
                    events.append("declined Ask to Buy request \(request.id)")
                }
            case .advance(let duration):
                _ = try store.advance(by: duration)
            case let .settings(askToBuy, billingRetry, gracePeriod):
                try store.updateSettings { settings in
                    if let askToBuy { settings.askToBuyEnabled = askToBuy }
                    if let billingRetry { settings.shouldEnterBillingRetryOnRenewal = billingRetry }
                    if let gracePeriod { settings.billingGracePeriodIsEnabled = gracePeriod }
                }
                let settings = try store.settings()
                events.append("store settings: Ask to Buy \(settings.askToBuyEnabled ? "on" : "off"), billing retry \(settings.shouldEnterBillingRetryOnRenewal ? "on" : "off"), grace period \(settings.billingGracePeriodIsEnabled ? "on" : "off")")
            case let .autoRenew(enabled, group):
                _ = try store.setAutoRenew(enabled, customer: customerID, groupID: group)
            case .resolveBilling(let group):
                _ = try store.resolveBillingIssue(customer: customerID, groupID: group)
            case .expire(let group):
                _ = try store.expireSubscription(customer: customerID, groupID: group)
            case .refund(let product):
                guard let latest = try store.ledger.latestTransaction(customerID: customerID, productID: product) else {
                    throw PolicyError(kind: .badRequest, reason: "\(customerID) has no transaction for \(product) to refund")
                }
                _ = try store.refund(transactionID: latest.id)
            case .reload(let file):
                let source = try PolicySource(contentsOf: folder.url.appendingPathComponent(file))
                let version = try engine.reload(source)
                events.append("reloaded the policy from \(file) (version \(version))")
                try engine.retryUnfinishedGrants(customerID: customerID, in: store, catalog: catalog, storeTime: storeNow)
            case .features:
                break
            }
        } catch {
            failure = (error as? PolicyError)?.description ?? "\(error)"
        }
        storeNow.date = (try? store.now()) ?? storeNow.date
        events += notificationEvents(customerID: customerID)

        let after = (try? store.transactions(customerID: customerID)) ?? []
        var grants: [Grant] = []
        var unfinished: [String] = []
        for transaction in after {
            guard let id = transaction.payload.transactionId, let stored = try? store.ledger.transaction(id: id) else { continue }
            if !before.contains(id) { grants += (try? store.ledger.grants(ofTransaction: id)) ?? [] }
            if case .unfinished(let reason) = stored.grantState { unfinished.append("\(id) (\(stored.productID)): \(reason)") }
        }
        let context = (try? self.context(for: customerID)) ?? PolicyContext(customer: CustomerContext(id: customerID))
        return JourneyStepReport(
            number: number, action: Self.describe(step.action), note: step.note, customerID: customerID,
            date: context.now, events: events, error: failure, grants: grants, unfinished: unfinished,
            balances: context.customer.balances, features: engine.features(context).value,
            plan: engine.storefrontPlan(context, placement: placement))
    }

    /// The notifications this step sent, in words: "SUBSCRIBED (INITIAL_BUY) pass.individual".
    private func notificationEvents(customerID: String) -> [String] {
        guard let notifications = try? store.notifications(after: lastNotification) else { return [] }
        lastNotification = notifications.last?.sequence ?? lastNotification
        return notifications.map { notification in
            let text = notification.words(namingProduct: true)
            return notification.customerID == customerID ? text : text + " for \(notification.customerID)"
        }
    }

    static func describe(_ action: Journey.Action) -> String {
        switch action {
        case .storefront(let placement): return "storefront \(placement)"
        case let .purchase(product, quantity, offer, offerCode, winBackOffer):
            return "purchase \(product)" + (quantity != 1 ? " × \(quantity)" : "") + (offer.map { " with offer \($0)" } ?? "")
                + (offerCode.map { " with code \($0)" } ?? "") + (winBackOffer.map { " with win-back offer \($0)" } ?? "")
        case .approve: return "approve"
        case .decline: return "decline"
        case .advance(let duration): return "advance \(duration.iso8601)"
        case .settings: return "settings"
        case let .autoRenew(enabled, _): return "auto-renew \(enabled ? "on" : "off")"
        case .resolveBilling: return "resolve billing"
        case .expire: return "expire"
        case .refund(let product): return "refund \(product)"
        case .reload(let file): return "reload \(file)"
        case .features: return "features"
        }
    }
}
