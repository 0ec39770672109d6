import Foundation

extension Ledger {
    /// The state of `customerID` at `date` — current entitlements, subscription statuses,
    /// introductory-offer eligibility, history, balances and merchandising events — read from one consistent
    /// snapshot of the ledger. See ``CustomerState`` for the rules.
    ///
    /// A customer the ledger does not know has an empty state: no purchases, eligible for
    /// every introductory offer, and ``CustomerState/isKnown`` false.
    ///
    /// - Parameters:
    ///   - customerID: the customer.
    ///   - catalog: the products, for the groups and levels of subscriptions; optional.
    ///   - date: the date the state describes; now by default.
    ///   - signedData: whether the state's transactions carry their signed JWS; without it
    ///     (for deciding and showing, which never read it) each `jwsRepresentation` is empty
    ///     and the read skips the kilobytes of every signature.
    /// - Throws: ``LedgerError/invalidCustomerID(_:)``; ``LedgerError/storage(_:)`` when the storage fails.
    public func customerState(customerID: String, catalog: Catalog? = nil, at date: Date = Date(), signedData: Bool = true) throws -> CustomerState {
        try CustomerID.validated(customerID)
        return try reading { ledger in
            let transactions = signedData
                ? try ledger.transactions(.customer(customerID))
                : try ledger.transactionsWithoutSignedData(customerID: customerID)
            let subscriptionIDs = Set(transactions.filter { $0.productType == .autoRenewableSubscription }.map(\.originalID))
            let renewalInfos = try subscriptionIDs.sorted().compactMap { try ledger.renewalInfo(originalTransactionID: $0) }
            return try CustomerState(
                customerID: customerID, transactions: transactions, renewalInfos: renewalInfos,
                balances: try ledger.balances(customerID: customerID), events: try ledger.eventSummaries(customerID: customerID),
                isKnown: try ledger.customer(id: customerID) != nil, catalog: catalog, at: date)
        }
    }

    /// The transactions that entitle `customerID` at `date` (StoreKit's
    /// `Transaction.currentEntitlements`), ordered by product id; see ``CustomerState``.
    public func currentEntitlements(customerID: String, catalog: Catalog? = nil, at date: Date = Date()) throws -> [StoredTransaction] {
        try customerState(customerID: customerID, catalog: catalog, at: date).currentEntitlements
    }

    /// The statuses of `customerID`'s subscriptions in `groupID` at `date` (StoreKit's
    /// `Product.SubscriptionInfo.status`), the one speaking for the group first.
    public func subscriptionStatuses(
        customerID: String, groupID: String, catalog: Catalog? = nil, at date: Date = Date()
    ) throws -> [Product.SubscriptionInfo.Status] {
        try customerState(customerID: customerID, catalog: catalog, at: date).subscriptionStatuses(inGroup: groupID)
    }

    /// Whether `customerID` can get the introductory offer of a subscription in `groupID`
    /// (StoreKit's `Product.SubscriptionInfo.isEligibleForIntroOffer(for:)`).
    public func isEligibleForIntroOffer(customerID: String, groupID: String, catalog: Catalog? = nil) throws -> Bool {
        try customerState(customerID: customerID, catalog: catalog).isEligibleForIntroOffer(groupID: groupID)
    }
}
