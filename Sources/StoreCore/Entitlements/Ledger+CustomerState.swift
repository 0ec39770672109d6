import Foundation

extension Ledger {
    /// The state of `customerID` at `date` — current entitlements, subscription statuses,
    /// introductory-offer eligibility, history, balances, merchandising events and exposures to experiments — read from one consistent
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
        let snapshot = try customerSnapshot(customerID: customerID, signedData: signedData)
        return try CustomerState(
            customerID: customerID, transactions: snapshot.transactions, renewalInfos: snapshot.renewalInfos,
            balances: snapshot.balances, events: snapshot.events, exposures: snapshot.exposures, isKnown: snapshot.isKnown,
            catalog: catalog, at: date)
    }

    /// A customer's snapshot: without signed data, in one read of the storage's own, with the
    /// transaction a decision on this thread is about included as stored; with signed data,
    /// read by read.
    private func customerSnapshot(customerID: String, signedData: Bool) throws -> CustomerSnapshot {
        guard !signedData else {
            return try reading { try $0.customerSnapshot(customerID: customerID, signedData: signedData) }
        }
        var snapshot = try reportingStorageFailures { try storage.customerSnapshot(customerID: customerID) }
        guard let scope = ReceivedTransactionScope.active(for: self), scope.received.customerID == customerID,
              !snapshot.transactions.contains(where: { $0.id == scope.received.id })
        else { return snapshot }
        var unsigned = scope.received
        unsigned.jwsRepresentation = ""
        snapshot.transactions = ReadingWithReceivedTransaction.inPurchaseOrder(snapshot.transactions, adding: unsigned)
        snapshot.isKnown = true
        let originalID = unsigned.originalID
        if unsigned.productType == .autoRenewableSubscription, !snapshot.renewalInfos.contains(where: { $0.originalTransactionID == originalID }),
           let renewalInfo = try reading({ try $0.renewalInfo(originalTransactionID: originalID) }) {
            snapshot.renewalInfos = (snapshot.renewalInfos + [renewalInfo]).sorted { $0.originalTransactionID < $1.originalTransactionID }
        }
        return snapshot
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
