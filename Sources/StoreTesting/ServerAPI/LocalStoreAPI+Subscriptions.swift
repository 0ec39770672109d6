import AppStoreServerAPI
import StoreCore

extension LocalStoreAPI {
    /// The customer's subscriptions by group, with Apple's status numbers, optionally only
    /// those with one of the `status` values asked for.
    func subscriptionStatuses(_ transactionID: String, query: QueryArguments) throws -> StatusResponse {
        let owner = try store.apiTransaction(transactionID)
        var wanted: Set<Int> = []
        for text in query.values("status") {
            guard let status = Int(text), (1...5).contains(status) else {
                throw ServerAPIFailure.badRequest(.invalidStatus, "status is 1 (active) to 5 (revoked), not \(text)")
            }
            wanted.insert(status)
        }
        var groups: [(String, [LastTransactionsItem])] = []
        for subscription in try store.apiSubscriptions(customerID: owner.record.customerID) {
            let status = Self.statusNumber(subscription.state)
            guard wanted.isEmpty || wanted.contains(status) else { continue }
            guard let transaction = try store.latestTransactionJWS(subscription.latestTransactionID) else { continue }
            let item = LastTransactionsItem(status: status, originalTransactionId: subscription.originalID, signedTransactionInfo: transaction,
                                            signedRenewalInfo: try store.apiRenewalInfo(subscription))
            if let index = groups.firstIndex(where: { $0.0 == subscription.groupID }) {
                groups[index].1.append(item)
            } else {
                groups.append((subscription.groupID, [item]))
            }
        }
        return StatusResponse(environment: store.configuration.environment.rawValue, bundleId: store.configuration.bundleID,
                              appAppleId: store.configuration.appAppleID,
                              data: groups.map { SubscriptionGroupIdentifierItem(subscriptionGroupIdentifier: $0.0, lastTransactions: $0.1) })
    }

    /// Apple's status number of a subscription's state.
    static func statusNumber(_ state: LocalStore.Subscription.State) -> Int {
        switch state {
        case .subscribed: 1
        case .expired: 2
        case .inBillingRetryPeriod: 3
        case .inGracePeriod: 4
        case .revoked: 5
        }
    }
}
