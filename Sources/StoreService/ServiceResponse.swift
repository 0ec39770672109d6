import StoreCore
import StorePolicy

/// The `"result"` of a request that succeeded, one shape per operation.
public enum ServiceResponse: Encodable, Sendable {
    /// `storefront`: the plan, as `storerules storefront --json` prints it.
    case storefront(StorefrontPlan)
    /// `ingest_transaction`.
    case transaction(TransactionAnswer)
    /// `ingest_notification`.
    case notification(NotificationAnswer)
    /// `entitlements`.
    case entitlements(EntitlementsAnswer)
    /// `register_customer`.
    case customer(CustomerAnswer)
    /// `record_event`.
    case event(EventAnswer)
    /// `decide`.
    case decision(HookResponse)
    /// `retry_unfinished`.
    case retry(RetryAnswer)
    /// `policy`.
    case policy(PolicyAnswer)
    /// `reload`.
    case reload(ReloadAnswer)

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .storefront(let plan): try plan.encode(to: encoder)
        case .transaction(let answer): try answer.encode(to: encoder)
        case .notification(let answer): try answer.encode(to: encoder)
        case .entitlements(let answer): try answer.encode(to: encoder)
        case .customer(let answer): try answer.encode(to: encoder)
        case .event(let answer): try answer.encode(to: encoder)
        case .decision(let answer): try answer.encode(to: encoder)
        case .retry(let answer): try answer.encode(to: encoder)
        case .policy(let answer): try answer.encode(to: encoder)
        case .reload(let answer): try answer.encode(to: encoder)
        }
    }
}

/// What ingesting one transaction did, and the customer's balances afterwards.
public struct TransactionAnswer: Encodable, Sendable {
    /// The transaction's id.
    public var transactionID: String
    /// The customer who owns it.
    public var customerID: String
    /// Its product.
    public var productID: String
    /// How the JWS changed what is stored: `inserted`, `unchanged`, `updated` or `superseded`.
    public var storage: String
    /// `granted`, `already_finished`, `unfinished`, `revoked` or `revocation_withdrawn`.
    public var outcome: String
    /// What this call changed: the grants recorded (`granted`), reversed (`revoked`) or
    /// restored (`revocation_withdrawn`); empty otherwise.
    public var grants: [Grant]
    /// Why the transaction stays unfinished (`unfinished` only).
    public var reason: String?
    /// The customer's balances after the call.
    public var balances: [String: Int]

    /// The answer for one ingest result and the customer's balances after it.
    public init(_ result: TransactionIngestResult, balances: [String: Int]) {
        transactionID = result.transaction.id
        customerID = result.transaction.customerID
        productID = result.transaction.productID
        switch result.storage {
        case .inserted: storage = "inserted"
        case .unchanged: storage = "unchanged"
        case .updated: storage = "updated"
        case .superseded: storage = "superseded"
        }
        grants = []
        switch result.outcome {
        case .granted(let granted):
            outcome = "granted"
            grants = granted
        case .alreadyFinished:
            outcome = "already_finished"
        case .unfinished(let why):
            outcome = "unfinished"
            reason = why.description
        case .revoked(let reversed):
            outcome = "revoked"
            grants = reversed
        case .revocationWithdrawn(let restored):
            outcome = "revocation_withdrawn"
            grants = restored
        }
        self.balances = balances
    }

    private enum CodingKeys: String, CodingKey {
        case transactionID = "transaction_id", customerID = "customer", productID = "product_id"
        case storage, outcome, grants, reason, balances
    }
}

/// What ingesting one App Store Server Notification did.
public struct NotificationAnswer: Encodable, Sendable {
    /// The notification's `notificationUUID`.
    public var notificationUUID: String?
    /// Its `notificationType`.
    public var notificationType: String?
    /// Its `subtype`.
    public var subtype: String?
    /// `processed`; `already_processed` when its UUID was seen before (nothing changed); or
    /// `pending` when its customer is not known yet: it is kept, and processed once the
    /// customer is registered.
    public var status: String
    /// Why the notification is pending.
    public var reason: String?
    /// The notification's transaction, when it carries one and was processed now.
    public var transaction: TransactionAnswer?
    /// What happened to its renewal info: `inserted`, `replaced` or `kept`.
    public var renewalInfo: String?

    private enum CodingKeys: String, CodingKey {
        case notificationUUID = "notification_uuid", notificationType = "notification_type", subtype, status, reason
        case transaction, renewalInfo = "renewal_info"
    }
}

/// A reload that swapped the new policy in.
public struct ReloadAnswer: Encodable, Sendable {
    /// The version now serving (a content hash).
    public var version: String
    /// The version that served before.
    public var previousVersion: String

    private enum CodingKeys: String, CodingKey {
        case version, previousVersion = "previous_version"
    }
}
