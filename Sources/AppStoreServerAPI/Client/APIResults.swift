import StoreCore

/// A page of transactions (a transaction or refund history), verified, with the revision that
/// asks for the next.
public struct TransactionHistoryPage: Sendable, Equatable {
    /// The token of the next page.
    public let revision: String?
    /// Whether more pages follow.
    public let hasMore: Bool
    /// The page's transactions, verified.
    public let transactions: [VerifiedTransaction]
}

/// The answer of an order id look-up, verified.
public struct OrderLookup: Sendable, Equatable {
    /// Whether the order id names an order of this app.
    public let isValid: Bool
    /// The order's transactions, verified.
    public let transactions: [VerifiedTransaction]
}

/// Every subscription of a customer, by group, each with its status and its latest
/// transaction and renewal info, verified.
public struct SubscriptionStatuses: Sendable, Equatable {
    /// The groups.
    public let groups: [Group]

    /// One subscription group.
    public struct Group: Sendable, Equatable {
        /// The group's identifier.
        public let groupID: String?
        /// Its subscriptions.
        public let subscriptions: [Subscription]
    }

    /// One subscription.
    public struct Subscription: Sendable, Equatable {
        /// `1` active, `2` expired, `3` billing retry, `4` grace period, `5` revoked.
        public let status: Int?
        /// The original transaction id.
        public let originalTransactionID: String?
        /// The latest transaction, verified.
        public let transaction: VerifiedTransaction
        /// The renewal info, verified.
        public let renewalInfo: VerifiedRenewalInfo
    }
}

/// A page of notification history, every notification verified, with the token of the next.
public struct NotificationHistoryPage: Sendable, Equatable {
    /// The token of the next page.
    public let paginationToken: String?
    /// Whether more pages follow.
    public let hasMore: Bool
    /// The page's notifications.
    public let items: [Item]

    /// A notification and its send attempts.
    public struct Item: Sendable, Equatable {
        /// The notification, verified.
        public let notification: VerifiedSignedData<ResponseBodyV2DecodedPayload>
        /// Every attempt to send it.
        public let sendAttempts: [SendAttemptItem]
    }
}
