import Foundation
import StoreCore
import StorePolicy

extension Service {
    // MARK: - Customers

    /// Records a customer (with its token), then processes the notifications kept for it.
    func registerCustomer(_ customerID: String, appAccountToken: String?) throws(ServiceError) -> CustomerAnswer {
        do {
            let customer = try ledger.registerCustomer(id: customerID, appAccountToken: appAccountToken)
            let resolved = try ledger.resolvePendingNotifications(decide: grantDecision)
            try grantsSettled(resolved.compactMap(\.transactionResult))
            return CustomerAnswer(customerID: customer.id, appAccountToken: customer.appAccountToken,
                                  notificationsProcessed: resolved.count)
        } catch {
            throw .ledger(error)
        }
    }

    /// Records a merchandising event, and answers the customer's history of it.
    func recordEvent(_ customerID: String, name: String, placement: String?) throws(ServiceError) -> EventAnswer {
        do {
            let summary = try ledger.recordEvent(customerID: customerID, name: name, placement: placement,
                                                 maximumNames: maximumEventNames)
            return EventAnswer(customerID: customerID, name: name, history: EventHistory(summary))
        } catch {
            throw .ledger(error)
        }
    }

    // MARK: - Decisions

    /// Runs one hook, on the context given or on the customer as the ledger knows them now.
    func decide(_ request: DecisionRequest) throws(ServiceError) -> HookResponse {
        let context: PolicyContext
        switch request.subject {
        case .context(let given):
            // A context given in full may leave its customer's id out; one it names follows the rule.
            if !given.customer.id.isEmpty, let problem = CustomerID.problem(with: given.customer.id) {
                throw .badRequest(problem)
            }
            context = given
        case .customer(let customerID):
            return try decidedAndRecorded(customerID: customerID) { _, context throws(ServiceError) in
                let response = try decide(request, in: context)
                return (response, response.exposures)
            }
        }
        // A context given in full is a what-if: it records nothing.
        return try decide(request, in: context)
    }

    private func decide(_ request: DecisionRequest, in context: PolicyContext) throws(ServiceError) -> HookResponse {
        do {
            var response = try HookRequest(hook: request.hook, context: context, arguments: request.arguments).decide(with: engine)
            if !request.traced { response.trace = nil }
            return response
        } catch {
            throw .decisionFailed(error)
        }
    }

    // MARK: - Administration

    /// Processes the kept notifications whose customer is known now, then asks the `grant` hook
    /// again for every unfinished transaction.
    func retryUnfinished() throws(ServiceError) -> RetryAnswer {
        do {
            let resolved = try ledger.resolvePendingNotifications(decide: grantDecision)
            let retried = try ledger.retryUnfinished(decide: grantDecision)
            try grantsSettled(resolved.compactMap(\.transactionResult) + retried)
            var balances: [String: [String: Int]] = [:]
            for customerID in Set(retried.map(\.transaction.customerID)) {
                balances[customerID] = try ledger.balances(customerID: customerID)
            }
            return RetryAnswer(
                notificationsProcessed: resolved.count,
                transactions: retried.map { TransactionAnswer($0, balances: balances[$0.transaction.customerID] ?? [:]) },
                stillPending: try ledger.pendingNotifications().count)
        } catch {
            throw .ledger(error)
        }
    }

    /// The policy serving now.
    func policyAnswer() -> PolicyAnswer {
        PolicyAnswer(version: engine.version, hooks: engine.definedHooks, loadedAt: engine.loadedAt, reloads: engine.reloadCount,
                     problem: policyProblem.withLock { $0 })
    }

    /// Whether the service can answer: its ledger answers a read. A policy release that
    /// failed to load here is reported too, without making the service unready: it keeps
    /// serving the previous policy.
    public func readiness() -> Readiness {
        let policyProblem = policyProblem.withLock { $0 }
        do {
            _ = try ledger.customer(id: "")
            return Readiness(ledgerReachable: true, problem: nil, policyVersion: engine.version, policyProblem: policyProblem)
        } catch {
            return Readiness(ledgerReachable: false, problem: "\(error)", policyVersion: engine.version, policyProblem: policyProblem)
        }
    }

    /// Records why the policy serving is not the one it should be; nil when it is again.
    public func reportPolicyProblem(_ problem: String?) {
        policyProblem.withLock { $0 = problem }
    }
}

/// A customer recorded, and the kept notifications that registration let the ledger process.
public struct CustomerAnswer: Encodable, Sendable {
    /// The customer.
    public var customerID: String
    /// Its app account token, when it has one.
    public var appAccountToken: String?
    /// How many kept notifications were processed because of this registration (or were
    /// waiting for another customer known by now).
    public var notificationsProcessed: Int

    private enum CodingKeys: String, CodingKey {
        case customerID = "customer", appAccountToken = "app_account_token", notificationsProcessed = "notifications_processed"
    }
}

/// A merchandising event recorded, and the customer's history of it, as hooks now see it.
public struct EventAnswer: Encodable, Sendable {
    /// The customer.
    public var customerID: String
    /// The event's name.
    public var name: String
    /// `ctx.customer.events[name]`, this event included.
    public var history: EventHistory

    private enum CodingKeys: String, CodingKey {
        case customerID = "customer", name, history
    }
}

/// What a retry of the unfinished transactions did.
public struct RetryAnswer: Encodable, Sendable {
    /// Kept notifications processed because their customer is known now.
    public var notificationsProcessed: Int
    /// Each unfinished transaction asked again, in purchase order.
    public var transactions: [TransactionAnswer]
    /// Kept notifications whose customer is still unknown.
    public var stillPending: Int

    private enum CodingKeys: String, CodingKey {
        case notificationsProcessed = "notifications_processed", transactions, stillPending = "still_pending"
    }
}

/// The policy a service serves.
public struct PolicyAnswer: Encodable, Sendable {
    /// Its version (a content hash).
    public var version: String
    /// The hooks it defines, sorted.
    public var hooks: [String]
    /// When it was loaded.
    public var loadedAt: Date
    /// How many reloads swapped a new policy in since the service started.
    public var reloads: Int
    /// Why the policy serving is not the one it should be (a reload or release that failed), if so.
    public var problem: String?

    private enum CodingKeys: String, CodingKey {
        case version, hooks, loadedAt = "loaded_at", reloads, problem
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(hooks, forKey: .hooks)
        try container.encode(ISO8601DateFormatter().string(from: loadedAt), forKey: .loadedAt)
        try container.encode(reloads, forKey: .reloads)
        try container.encodeIfPresent(problem, forKey: .problem)
    }
}

/// Whether a service can answer requests.
public struct Readiness: Encodable, Sendable {
    /// Whether the ledger answered a read.
    public var ledgerReachable: Bool
    /// What failed, when something did.
    public var problem: String?
    /// The policy version serving.
    public var policyVersion: String
    /// Why that is not the policy the service should serve (a release that failed to load), if so.
    public var policyProblem: String?

    /// Whether everything the service needs answered.
    public var isReady: Bool { ledgerReachable }

    private enum CodingKeys: String, CodingKey {
        case ready, ledgerReachable = "ledger_reachable", problem, policyVersion = "policy_version"
        case policyProblem = "policy_problem"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(isReady, forKey: .ready)
        try container.encode(ledgerReachable, forKey: .ledgerReachable)
        try container.encodeIfPresent(problem, forKey: .problem)
        try container.encode(policyVersion, forKey: .policyVersion)
        try container.encodeIfPresent(policyProblem, forKey: .policyProblem)
    }
}
