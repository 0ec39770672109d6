import LuaBridge
import StorePolicy

/// What a request asks the service to do.
public enum ServiceRequest: Sendable {
    /// The storefront plan for a customer at a placement.
    case storefront(customerID: String, placement: String)
    /// Verify a signed transaction and ingest it for a customer.
    case ingestTransaction(customerID: String, jws: String)
    /// Verify an App Store Server Notification V2 `signedPayload` and ingest what it carries.
    case ingestNotification(jws: String, customerID: String?)
    /// What a customer owns and may use now.
    case entitlements(customerID: String)
    /// Record a customer, with its app account token when given, and process the notifications
    /// kept for it.
    case registerCustomer(customerID: String, appAccountToken: String?)
    /// Record a merchandising event of a customer (`paywall_shown` at a placement), which hooks
    /// see in `ctx.customer.events`.
    case recordEvent(customerID: String, name: String, placement: String?)
    /// Run one hook, on a given context or on a customer as the ledger knows them now.
    case decide(DecisionRequest)
    /// Ask the `grant` hook again for every unfinished transaction, after processing the kept
    /// notifications whose customer is known now.
    case retryUnfinished
    /// The policy serving: its version, hooks and when it was loaded.
    case policy
    /// Re-read `policy.lua` and swap it in.
    case reload
}

/// One hook to run, as `POST /v1/decisions/{hook}` and the JSON-lines `decide` ask for it.
public struct DecisionRequest: Sendable {
    /// Whom the hook decides for.
    public enum Subject: Sendable {
        /// A context given in full.
        case context(PolicyContext)
        /// A customer as the ledger knows them now.
        case customer(String)
    }

    /// The hook.
    public var hook: String
    /// Whom it decides for.
    public var subject: Subject
    /// The arguments after `ctx`, as `storerules eval --arg` takes them.
    public var arguments: [LuaValue]
    /// Whether the answer carries the decision's trace.
    public var traced: Bool

    /// Describes a decision to run.
    public init(hook: String, subject: Subject, arguments: [LuaValue] = [], traced: Bool = false) {
        self.hook = hook
        self.subject = subject
        self.arguments = arguments
        self.traced = traced
    }
}
