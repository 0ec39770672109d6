import Foundation
import StoreCore
import Testing

/// Each customer's share of the subscription metrics, counted with `customer`, agrees with what
/// `ledger customer` shows of them at the same time: their active paid subscriptions and trials;
/// and the shares add up to the whole ledger's figures. On the generated year, on SQLite and
/// PostgreSQL, at times after its last transaction: `ledger customer` reads the ledger as it
/// stands at the time it is given, while the metrics as of a past time leave out what was
/// bought after it.
@Suite struct SubscriptionMetricsCustomerShareTests {
    typealias Year = SubscriptionMetricsJudgeTests

    /// The year's end, with customers in their grace period, and a few days after it.
    static let times = ["2026-01-01T00:00:00Z", "2026-01-04T09:30:00Z"]

    /// Whether a status counts as active in the metrics: subscribed or in a grace period, and
    /// bought by the customer (a family member's shared copy is not counted).
    static func isActivePurchase(_ status: Product.SubscriptionInfo.Status) -> Bool {
        let isActive = status.state == .subscribed || status.state == .inGracePeriod
        return isActive && status.transaction.ownershipType != .familyShared
    }

    @Test("each customer's share of the active figures is what ledger customer shows, and the shares add up",
          arguments: Year.backends, times)
    func sharesAgreeWithCustomerStates(backend: String, time: String) throws {
        let ledger = try Year.ledger(on: backend).ledger
        let asOf = try #require(MetricsJudge.date(time))
        let query = { (customer: String?) in
            try SubscriptionMetricsQuery(from: MetricsYear.start, to: asOf, interval: .month, asOf: asOf, customerID: customer)
        }
        let whole = try ledger.subscriptionMetrics(query(nil))
        var paid = 0, trials = 0, newCustomers = 0, renewals = 0
        let customers = try ledger.customers().map(\.id)
        #expect(customers.count >= 200)
        for customer in customers {
            let share = try ledger.subscriptionMetrics(query(customer))
            let state = try ledger.customerState(customerID: customer, at: asOf, signedData: false)
            let statuses: [Product.SubscriptionInfo.Status] = state.subscriptionStatuses.values.flatMap { $0 }
            let active = statuses.filter(Self.isActivePurchase)
            let isTrial = { (status: Product.SubscriptionInfo.Status) in
                status.transaction.offerType == .introductoryOffer && status.transaction.offerDiscountType == .freeTrial
            }
            let last = try #require(share.intervals.last)
            #expect(last.activeSubscriptions == active.filter { !isTrial($0) }.count, "\(customer)'s paid subscriptions")
            #expect(last.activeTrials == active.filter(isTrial).count, "\(customer)'s trials")
            #expect(share.customerID == customer)
            paid += last.activeSubscriptions
            trials += last.activeTrials
            newCustomers += share.intervals.reduce(0) { $0 + $1.newCustomers }
            renewals += share.intervals.reduce(0) { $0 + $1.renewals }
        }
        let last = try #require(whole.intervals.last)
        #expect(paid == last.activeSubscriptions && trials == last.activeTrials)
        #expect(paid > 0, "the time holds active subscriptions")
        #expect(newCustomers == whole.intervals.reduce(0) { $0 + $1.newCustomers })
        #expect(renewals == whole.intervals.reduce(0) { $0 + $1.renewals })
    }
}
