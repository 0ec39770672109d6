import Foundation
import LuaBridge
import StoreCore
import StorePolicy
import Synchronization

/// StoreRules as a server embeds it: one catalog, one engine, one ledger and one verifier,
/// shared by every worker thread.
///
/// Each of the four is safe to share. The engine gives each thread its own Lua state; the
/// ledger serializes its writes and grants a transaction once however many threads deliver
/// it; the verifier caches validated certificate chains behind a lock. So the service needs
/// no lock of its own.
public final class Service: Sendable {
    /// The policy folder served.
    public let folder: PolicyFolder
    /// The catalog serving with the engine's policy; swapped with it by ``servePolicy(_:catalog:)``.
    private let servedCatalog: ServedCatalog
    /// Serializes swaps of the policy and its catalog.
    private let swapping = Mutex(())
    /// Why the policy serving is not the one it should be (a release that failed to load), if so.
    let policyProblem = Mutex<String?>(nil)
    /// Whether the policy follows the ledger's releases rather than the folder.
    public let followsLedgerReleases: Bool
    /// How many distinct merchandising event names one customer keeps.
    public let maximumEventNames: Int
    /// Called when a refund request Apple asked about is new to the ledger.
    private let consumptionRequestObserver = Mutex<(@Sendable () -> Void)?>(nil)
    /// The host's attributes of a customer, in every decision made from the ledger.
    public let customerAttributes: @Sendable (_ customerID: String) -> [String: LuaValue]
    /// The time the service decides at (``ServiceConfiguration/clock``).
    public let clock: @Sendable () -> Date
    /// The policy engine every request decides with.
    public let engine: PolicyEngine
    /// The ledger every ingest goes to.
    public let ledger: Ledger
    /// The verifier of every signed payload.
    public let verifier: SignedDataVerifier
    /// The policy's loads and failures to load since the service started.
    public let policyHistory = PolicyHistory()
    /// The catalog serving now, when there is one.
    public var catalog: Catalog? {
        servedCatalog.value.withLock { $0 }
    }

    /// The policy's `grant` hook as the ledger's decision closure, over the catalog serving now.
    var grantDecision: @Sendable (StoredTransaction) throws -> [Grant] {
        engine.grantDecision(for: ledger, catalog: catalog, attributes: customerAttributes, clock: clock)
    }

    /// Calls `observer` each time a `CONSUMPTION_REQUEST` notification brings a refund request
    /// new to the ledger (once its transaction is ingested), and each time registering a customer
    /// or a retry grants a transaction a refund request waits for, such as to wake a
    /// ``ConsumptionResponder``.
    public func onConsumptionRequest(_ observer: @escaping @Sendable () -> Void) {
        consumptionRequestObserver.withLock { $0 = observer }
    }

    /// Wakes the ``onConsumptionRequest(_:)`` observer: a refund request is new, or one may have
    /// stopped waiting for its transaction's grant.
    func wakeConsumptionResponder() {
        consumptionRequestObserver.withLock { $0 }?()
    }

    /// Loads the folder's catalog and policy, opens the ledger and configures the verifier.
    ///
    /// - Throws: ``StartupError`` naming what could not be loaded.
    public init(configuration options: ServiceConfiguration) throws(StartupError) {
        let catalog: Catalog?
        do {
            folder = try PolicyFolder(URL(fileURLWithPath: options.folder))
            switch options.catalog {
            case .file(let name, let text):
                catalog = try Catalog(data: Data(text.utf8), fileName: name)
            case .none:
                catalog = nil
            case .folder:
                // A folder without a catalog would serve as ready and grant nothing.
                guard folder.catalogURL != nil else {
                    throw StartupError("\(options.folder) has no .storekit catalog; a service grants and shows only what its catalog lists")
                }
                catalog = try folder.loadCatalog()
            }
            servedCatalog = ServedCatalog(catalog)
            engine = try PolicyEngine(source: try options.policy ?? folder.policySource(), catalog: catalog.map(PolicyCatalog.init) ?? .empty)
        } catch let error as StartupError {
            throw error
        } catch let error as PolicyError {
            throw StartupError(error.description)
        } catch {
            throw StartupError("\(error)")
        }
        do {
            verifier = try SignedDataVerifier(rootCertificates: options.rootCertificates, bundleId: options.bundleId,
                                              appAppleId: options.appAppleId, environment: options.environment)
        } catch {
            throw StartupError("\(error)")
        }
        // Opened last, so a mistake in the options above leaves no ledger file behind.
        do {
            let opened = try options.ledger.openLedger()
            // A ledger that recorded events once goes on recording them, whoever writes to it.
            let records = try options.recordsOutgoingEvents || opened.hasRecordedOutgoingEvents()
            ledger = records
                ? opened.recordingOutgoingEvents(OutgoingEventRecording(
                    clock: options.clock, catalog: { [servedCatalog] in servedCatalog.value.withLock { $0 } },
                    policyVersion: { [engine] in engine.version }))
                : opened
        } catch {
            throw StartupError("the ledger \(options.ledger.displayName): \(options.ledger.printable(error))")
        }
        followsLedgerReleases = options.followsLedgerReleases
        maximumEventNames = options.maximumEventNames
        customerAttributes = options.customerAttributes
        clock = options.clock
        policyHistory.record(PolicyHistory.Event(
            time: engine.loadedAt, loaded: true, version: engine.version,
            origin: followsLedgerReleases ? "start, the ledger's newest release" : "start, \(folder.url.path)"))
        // Notifications kept for customers not known when they came may have become matchable
        // while no service ran (a customer registered, tokens made canonical by a migration).
        // One that still fails stays kept for the next retry; a failure here stops nothing. A
        // refund request waiting for a transaction granted so is due at once.
        if let resolved = try? ledger.resolvePendingNotifications(decide: grantDecision) {
            try? grantsSettled(resolved.compactMap(\.transactionResult))
        }
    }

    /// Answers one operation. Called from many threads at once.
    public func answer(_ operation: ServiceRequest) throws(ServiceError) -> ServiceResponse {
        switch operation {
        case .storefront(let customerID, let placement):
            return .storefront(try storefrontPlan(customerID: customerID, placement: placement))
        case .ingestTransaction(let customerID, let jws):
            return .transaction(try ingestTransaction(jws, customerID: customerID))
        case .ingestNotification(let jws, let customerID):
            return .notification(try ingestNotification(jws, customerID: customerID))
        case .entitlements(let customerID):
            return .entitlements(try entitlements(of: customerID))
        case .registerCustomer(let customerID, let token):
            return .customer(try registerCustomer(customerID, appAccountToken: token))
        case .recordEvent(let customerID, let name, let placement):
            return .event(try recordEvent(customerID, name: name, placement: placement))
        case .decide(let request):
            return .decision(try decide(request))
        case .retryUnfinished:
            return .retry(try retryUnfinished())
        case .policy:
            return .policy(policyAnswer())
        case .reload:
            return .reload(try reload())
        }
    }

    // MARK: - Decisions

    /// The storefront plan for `customerID` at `placement`, as the ledger knows them now.
    ///
    /// The variants the plan read for the first time are recorded before it is returned
    /// (``decidedAndRecorded(customerID:records:_:)``), the customer with them when the
    /// ledger does not know them yet.
    public func storefrontPlan(customerID: String, placement: String) throws(ServiceError) -> StorefrontPlan {
        try decidedAndRecorded(customerID: customerID) { state, context in
            var plan = engine.storefrontPlan(context, placement: placement)
            plan.customerKnown = state.isKnown
            return (plan, plan.exposures)
        }
    }

    private func entitlements(of customerID: String) throws(ServiceError) -> EntitlementsAnswer {
        try decidedAndRecorded(customerID: customerID, records: \.isKnown) { state, context in
            let answer = EntitlementsAnswer(state: state, context: context, engine: engine)
            return (answer, answer.exposures)
        }
    }

    // MARK: - Signed data

    /// Verify first, then store: nothing unverified reaches the ledger. The ledger stores the
    /// transaction before it asks the policy what to grant, and records the grants with the
    /// finished state in one SQLite transaction, so a transaction delivered twice (even by two
    /// workers at once) grants once.
    private func ingestTransaction(_ jws: String, customerID: String) throws(ServiceError) -> TransactionAnswer {
        let payload: JWSTransactionDecodedPayload
        do {
            payload = try verifier.verifyAndDecodeTransaction(jws)
        } catch {
            throw .verificationFailed(part: "transaction", error)
        }
        do {
            let result = try ledger.ingest(transaction: payload, jwsRepresentation: jws, customerID: customerID, decide: grantDecision)
            return TransactionAnswer(result, balances: try ledger.balances(customerID: customerID))
        } catch {
            throw .ledger(error)
        }
    }

    /// A notification's `signedPayload` is verified, and so is each signed JWS nested in it:
    /// the notification's signature does not vouch for them.
    private func ingestNotification(_ jws: String, customerID: String?) throws(ServiceError) -> NotificationAnswer {
        let notification: ResponseBodyV2DecodedPayload
        let transaction: JWSTransactionDecodedPayload?
        let renewalInfo: JWSRenewalInfoDecodedPayload?
        do {
            notification = try verifier.verifyAndDecodeNotification(jws)
        } catch {
            throw .verificationFailed(part: "notification", error)
        }
        do {
            transaction = try notification.data?.signedTransactionInfo.map(verifier.verifyAndDecodeTransaction)
        } catch {
            throw .verificationFailed(part: "signedTransactionInfo", error)
        }
        do {
            renewalInfo = try notification.data?.signedRenewalInfo.map(verifier.verifyAndDecodeRenewalInfo)
        } catch {
            throw .verificationFailed(part: "signedRenewalInfo", error)
        }
        let answer = NotificationAnswer(
            notificationUUID: notification.notificationUUID, notificationType: notification.notificationType?.rawValue,
            subtype: notification.subtype?.rawValue, status: "already_processed")
        do {
            // Kept before the notification is processed, and again whenever Apple sends it again,
            // so a request is never lost between the two writes; the responder is woken once the
            // notification's transaction is settled, which the answer reads.
            let requested = try ConsumptionRequestRecord(notification: notification, transaction: transaction)
                .map(ledger.recordConsumptionRequest) ?? false
            defer { if requested { wakeConsumptionResponder() } }
            let result = try ledger.ingest(notification: notification, transaction: transaction, renewalInfo: renewalInfo,
                                           customerID: customerID, decide: grantDecision)
            // Every ledger outcome is answered here, so a new one is a compile error in this switch.
            switch result {
            case .alreadyProcessed:
                return answer
            case .pending(let reason):
                var pending = answer
                pending.status = "pending"
                pending.reason = reason
                return pending
            case .conflict(let reason):
                var conflict = answer
                conflict.status = "conflict"
                conflict.reason = reason
                return conflict
            case .processed(let transactionResult, let renewalResult):
                return try processed(answer, transaction: transactionResult, renewalInfo: renewalResult)
            }
        } catch {
            throw .ledger(error)
        }
    }

    /// `answer` for a notification processed now, with what its transaction and renewal info did.
    private func processed(_ answer: NotificationAnswer, transaction transactionResult: TransactionIngestResult?,
                           renewalInfo renewalResult: RenewalInfoIngestResult?) throws -> NotificationAnswer {
        var answer = answer
        answer.status = "processed"
        if let transactionResult {
            answer.transaction = TransactionAnswer(
                transactionResult, balances: try ledger.balances(customerID: transactionResult.transaction.customerID))
        }
        switch renewalResult {
        case .inserted: answer.renewalInfo = "inserted"
        case .replaced: answer.renewalInfo = "replaced"
        case .kept: answer.renewalInfo = "kept"
        case nil: break
        }
        return answer
    }

    // MARK: - Reload

    /// Compiles and validates the policy file as it is now, then swaps it in atomically:
    /// requests already running finish on the old policy, the next ones use the new one. A
    /// policy that fails leaves the old one serving.
    private func reload() throws(ServiceError) -> ReloadAnswer {
        guard !followsLedgerReleases else {
            throw .conflict("this service follows the ledger's policy releases; publish with storerules policy publish instead")
        }
        let previous = engine.version
        do throws(PolicyError) {
            // Opened again: a catalog added or removed since the start counts.
            let current = try PolicyFolder(folder.url)
            let version = try servePolicy(try current.policySource(), catalog: try Self.catalog(of: current))
            policyHistory.record(PolicyHistory.Event(time: Date(), loaded: true, version: version, origin: Self.reloadOrigin))
            return ReloadAnswer(version: version, previousVersion: previous)
        } catch {
            policyHistory.record(PolicyHistory.Event(time: Date(), loaded: false, version: engine.version, origin: Self.reloadOrigin,
                                                     problem: error.description))
            throw .reloadFailed(error, servingVersion: engine.version)
        }
    }

    /// Where a reload asked through the API is said to come from in ``policyHistory``.
    static let reloadOrigin = "POST /v1/admin/reload"

    /// Swaps in `source` with `catalog`: the engine's policy and catalog at once, then the
    /// catalog customer states are read with. A policy that fails leaves both as they were.
    ///
    /// - Returns: the new version.
    @discardableResult
    public func servePolicy(_ source: PolicySource, catalog: Catalog?) throws(PolicyError) -> String {
        try swapping.withLock { _ throws(PolicyError) -> String in
            let version = try engine.reload(source, catalog: catalog.map(PolicyCatalog.init) ?? .empty)
            servedCatalog.value.withLock { $0 = catalog }
            return version
        }
    }

    /// The folder's catalog as it is now; a catalog that fails to load is a policy that fails.
    static func catalog(of folder: PolicyFolder) throws(PolicyError) -> Catalog? {
        do {
            return try folder.loadCatalog()
        } catch {
            throw PolicyError(kind: .unreadable, script: folder.catalogURL?.lastPathComponent, reason: error.description)
        }
    }
}

/// The catalog a service serves, shared with the ledger's outgoing events, which read the levels
/// of subscriptions from it.
final class ServedCatalog: Sendable {
    /// The catalog serving now.
    let value: Mutex<Catalog?>

    init(_ catalog: Catalog?) {
        value = Mutex(catalog)
    }
}
