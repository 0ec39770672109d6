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
        /// The ledger's record of this subscriber's extension for this incident, sent by an
        /// earlier run — its own request, or its product's mass extension — or nil when none was.
        public let sentBefore: RenewalExtensionRecord?
    }

    /// The incident compensated.
    public let incident: Incident
    /// The incident's ``StorePolicy/Incident/compensationKey``: the request identifiers are made
    /// from it, and the ledger records each request under it.
    public let incidentKey: String
    /// Every subscriber touched, by product, then subscription.
    public let entries: [Entry]
    /// The products every subscriber of which gets the same extension: each is one mass request.
    /// A product some of whose subscribers were sent their own request for the incident is not
    /// one: a mass extension would extend them twice.
    public let massProducts: [String: RenewalExtension]
    /// The policy version that decided.
    public let policyVersion: String
}

/// What applying a plan did.
public struct CompensationSummary: Sendable, Encodable {
    /// Requests Apple accepted (or had accepted before, under the same identifier).
    public var sent = 0
    /// Requests the ledger records as sent for the incident by an earlier run, not sent again
    /// (a subscriber's own, or the mass extension covering it).
    public var alreadySent = 0
    /// Requests that failed, each with its reason.
    public var failures: [String] = []
    /// Subscribers given nothing.
    public var unextended = 0

    private enum CodingKeys: String, CodingKey {
        case sent, alreadySent = "already_sent", failures, unextended
    }
}
