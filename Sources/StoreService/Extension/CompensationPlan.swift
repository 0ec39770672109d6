import StoreCore
import StorePolicy

/// Who an incident's compensation extends, by how much and why: one line per subscriber the
/// ledger knows, and the products whose every subscriber gets the same, sent as Apple's mass
/// extension.
public struct CompensationPlan: Sendable {
    /// One subscriber's share.
    public struct Entry: Sendable {
        /// The subscriber.
        public let customerID: String
        /// The subscription, as the hook saw it.
        public let subscription: RenewalSubscription
        /// The days given, or nil for none.
        public let extensionGiven: RenewalExtension?
        /// Why none: the hook answered nil, or failed (with its reason).
        public let why: String?
        /// Whether the hook failed for this subscriber.
        public let failed: Bool
    }

    /// The incident compensated.
    public let incident: Incident
    /// The digest of the incident file: the request identifiers are made from it.
    public let incidentDigest: String
    /// Every subscriber touched, by product, then subscription.
    public let entries: [Entry]
    /// The products every subscriber of which gets the same extension: each is one mass request.
    public let massProducts: [String: RenewalExtension]
    /// The policy version that decided.
    public let policyVersion: String
}

/// What applying a plan did.
public struct CompensationSummary: Sendable, Encodable {
    /// Requests Apple accepted (or had accepted before, under the same identifier).
    public var sent = 0
    /// Requests sent by an earlier run, not sent again.
    public var alreadySent = 0
    /// Requests that failed, each with its reason.
    public var failures: [String] = []
    /// Subscribers given nothing.
    public var unextended = 0

    private enum CodingKeys: String, CodingKey {
        case sent, alreadySent = "already_sent", failures, unextended
    }
}
