import Foundation
import StoreCore

/// Subscription status and entitlements read simply from the ledger, for `storerules store
/// status` and `entitlements`: the latest transaction of each subscription and its renewal
/// info decide the state; non-consumables count until revoked, non-renewing subscriptions
/// until they expire. Richer entitlement rules belong to StoreCore's entitlement engine.
struct LedgerEntitlements {
    let ledger: Ledger
    let catalog: Catalog
    let now: Date

    /// One subscription of one customer.
    struct Subscription {
        let customerID: String
        let latest: StoredTransaction
        let renewalInfo: StoredRenewalInfo?
        /// subscribed, inGracePeriod, inBillingRetryPeriod, expired or revoked.
        let state: String

        var isEntitled: Bool { state == "subscribed" || state == "inGracePeriod" }
    }

    /// A customer's entitled products and balances.
    struct Entitlements {
        let customerID: String
        let productIDs: [String]
        let balances: [String: Int]
    }

    func subscriptions(of customers: [String]) throws -> [Subscription] {
        try customers.flatMap { try subscriptions(of: $0) }
    }

    private func subscriptions(of customer: String) throws -> [Subscription] {
        let transactions = try ledger.transactions(customerID: customer)
            .filter { $0.productType == .autoRenewableSubscription }
        var subscriptions: [Subscription] = []
        for (_, periods) in Dictionary(grouping: transactions, by: \.originalID) {
            let latest = periods.max { ($0.purchaseDate, $0.id) < ($1.purchaseDate, $1.id) }!
            let renewalInfo = try ledger.renewalInfo(originalTransactionID: latest.originalID)
            subscriptions.append(Subscription(customerID: customer, latest: latest, renewalInfo: renewalInfo,
                                              state: state(of: latest, renewalInfo)))
        }
        return subscriptions.sorted { lhs, rhs in
            (lhs.latest.subscriptionGroupID ?? "", lhs.latest.originalID) < (rhs.latest.subscriptionGroupID ?? "", rhs.latest.originalID)
        }
    }

    func entitlements(of customer: String) throws -> Entitlements {
        var products = Set<String>()
        for transaction in try ledger.transactions(customerID: customer) where !transaction.isRevoked {
            switch transaction.productType {
            case .nonConsumable:
                products.insert(transaction.productID)
            case .nonRenewingSubscription where (transaction.expirationDate ?? .distantPast) > now:
                products.insert(transaction.productID)
            default:
                break
            }
        }
        for subscription in try subscriptions(of: [customer]) where subscription.isEntitled {
            products.insert(subscription.latest.productID)
        }
        return Entitlements(customerID: customer, productIDs: products.sorted(),
                            balances: try ledger.balances(customerID: customer))
    }

    private func state(of latest: StoredTransaction, _ renewalInfo: StoredRenewalInfo?) -> String {
        if latest.isRevoked { return "revoked" }
        if let expiration = latest.expirationDate, expiration > now { return "subscribed" }
        if let grace = renewalInfo?.gracePeriodExpirationDate, grace > now { return "inGracePeriod" }
        if renewalInfo?.isInBillingRetry == true { return "inBillingRetryPeriod" }
        return "expired"
    }
}
