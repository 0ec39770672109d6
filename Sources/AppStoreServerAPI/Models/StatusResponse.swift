/// The answer of Get All Subscription Statuses: per subscription group, the latest signed
/// transaction and renewal info of each subscription.
public struct StatusResponse: Codable, Sendable, Equatable {
    /// `Production`, `Sandbox`, ….
    public var environment: String?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app's Apple ID.
    public var appAppleId: Int64?
    /// One item per subscription group.
    public var data: [SubscriptionGroupIdentifierItem]?

    /// An answer.
    public init(environment: String?, bundleId: String?, appAppleId: Int64?, data: [SubscriptionGroupIdentifierItem]?) {
        self.environment = environment
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.data = data
    }
}

/// One subscription group's subscriptions in a ``StatusResponse``.
public struct SubscriptionGroupIdentifierItem: Codable, Sendable, Equatable {
    /// The group's identifier.
    public var subscriptionGroupIdentifier: String?
    /// The latest of each subscription in the group.
    public var lastTransactions: [LastTransactionsItem]?

    /// A group's item.
    public init(subscriptionGroupIdentifier: String?, lastTransactions: [LastTransactionsItem]?) {
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.lastTransactions = lastTransactions
    }
}

/// A subscription's status with its latest signed transaction and renewal info.
public struct LastTransactionsItem: Codable, Sendable, Equatable {
    /// `1` active, `2` expired, `3` billing retry, `4` grace period, `5` revoked.
    public var status: Int?
    /// The subscription's original transaction id.
    public var originalTransactionId: String?
    /// The latest transaction's JWS.
    public var signedTransactionInfo: String?
    /// The renewal info's JWS.
    public var signedRenewalInfo: String?

    /// An item.
    public init(status: Int?, originalTransactionId: String?, signedTransactionInfo: String?, signedRenewalInfo: String?) {
        self.status = status
        self.originalTransactionId = originalTransactionId
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}
