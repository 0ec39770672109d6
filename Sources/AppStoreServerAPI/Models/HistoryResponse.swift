/// A page of Get Transaction History: signed transactions and the revision to ask for the next.
public struct HistoryResponse: Codable, Sendable, Equatable {
    /// The token of the next page.
    public var revision: String?
    /// Whether more pages follow.
    public var hasMore: Bool?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app's Apple ID.
    public var appAppleId: Int64?
    /// `Production`, `Sandbox`, ….
    public var environment: String?
    /// The page's signed transactions.
    public var signedTransactions: [String]?

    /// A page.
    public init(revision: String?, hasMore: Bool?, bundleId: String?, appAppleId: Int64?, environment: String?, signedTransactions: [String]?) {
        self.revision = revision
        self.hasMore = hasMore
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.signedTransactions = signedTransactions
    }
}

/// A page of Get Refund History: refunded transactions and the revision to ask for the next.
public struct RefundHistoryResponse: Codable, Sendable, Equatable {
    /// The page's signed transactions.
    public var signedTransactions: [String]?
    /// The token of the next page.
    public var revision: String?
    /// Whether more pages follow.
    public var hasMore: Bool?

    /// A page.
    public init(signedTransactions: [String]?, revision: String?, hasMore: Bool?) {
        self.signedTransactions = signedTransactions
        self.revision = revision
        self.hasMore = hasMore
    }
}
