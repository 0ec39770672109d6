import Foundation
import SignedData
import StoreCore
import StoreTesting
import Testing
import TestPrerequisites

/// Five days of five customers, each figure worked out by hand, read by the judge
/// (`scripts/metrics-judge/judge.py`) and by the ledger: a check of the judge itself.
///
/// - ana: a free day of trial from Mar 1 10:00, paid monthly (9.99 USD) from Mar 2 10:00,
///   upgraded to premium (14.99) on Mar 3 12:00, refunded on Mar 4 06:00.
/// - ben: a seed pack (4.99 GBP) on Mar 1 08:00, weekly (2.99 GBP) from Mar 3 00:00.
/// - cy: a trial from Mar 1 00:00 to Mar 2 00:00 that lapses.
/// - dee: monthly since Feb 3, expired Mar 3 00:00 into a grace period that ends Mar 5 00:00.
/// - eve: monthly from Feb 1 to Mar 1 00:00, back on Mar 4 12:00.
@Suite struct SubscriptionMetricsHandCountedTests {
    static let authority = MetricsYear.authority

    static func time(_ day: Int, _ hour: Int = 0, month: Int = 3) -> Date {
        MetricsJudge.date(String(format: "2025-%02d-%02dT%02d:00:00Z", month, day, hour))!
    }

    static let days = 86_400.0

    static func subscription(_ id: String, _ original: String, _ product: String, _ purchased: Date, _ expires: Date, _ price: Int64,
                             _ currency: String, _ trial: Bool, _ upgraded: Bool, _ revoked: Date?) -> JWSTransactionDecodedPayload {
        JWSTransactionDecodedPayload(
            originalTransactionId: original, transactionId: id, bundleId: MetricsYear.bundleID, productId: product,
            subscriptionGroupIdentifier: MetricsYear.group, purchaseDate: purchased, originalPurchaseDate: purchased, expiresDate: expires,
            quantity: 1, type: .autoRenewableSubscription, inAppOwnershipType: .purchased, signedDate: revoked ?? purchased,
            revocationReason: revoked.map { _ in .refundedForOtherReason }, revocationDate: revoked, isUpgraded: upgraded,
            offerType: trial ? .introductoryOffer : nil, environment: .sandbox, storefront: currency == "USD" ? "USA" : "GBR",
            transactionReason: .purchase, currency: currency, price: price, offerDiscountType: trial ? .freeTrial : nil)
    }

    static func ledger() throws -> (path: String, ledger: Ledger) {
        let directory = try TestFolders.make("metrics-hand")
        let path = directory.appending(path: "ledger.sqlite").path
        let ledger = try Ledger(path: path)
        func t(_ day: Int, _ hour: Int = 0, month: Int = 3) -> Date { time(day, hour, month: month) }
        let seeds = JWSTransactionDecodedPayload(
            originalTransactionId: "b1", transactionId: "b1", bundleId: MetricsYear.bundleID, productId: "seeds.pack",
            purchaseDate: t(1, 8), originalPurchaseDate: t(1, 8), quantity: 1, type: .consumable, inAppOwnershipType: .purchased,
            signedDate: t(1, 8), environment: .sandbox, storefront: "GBR", transactionReason: .purchase, currency: "GBP", price: 4990)
        let transactions: [(String, JWSTransactionDecodedPayload)] = [
            // Each subscription: id, original id, product, purchased, expires, price, currency, trial, upgraded, revoked.
            ("ana", subscription("a1", "a1", "guide.monthly", t(1, 10), t(2, 10), 0, "USD", true, false, nil)),
            ("ana", subscription("a2", "a1", "guide.monthly", t(2, 10), t(2, 10).addingTimeInterval(30 * days), 9990, "USD", false, true, nil)),
            ("ana", subscription("a3", "a1", "guide.premium", t(3, 12), t(3, 12).addingTimeInterval(30 * days), 14990, "USD", false, false, t(4, 6))),
            ("ben", seeds),
            ("ben", subscription("b2", "b2", "guide.weekly", t(3), t(10), 2990, "GBP", false, false, nil)),
            ("cy", subscription("c1", "c1", "guide.monthly", t(1), t(2), 0, "USD", true, false, nil)),
            ("dee", subscription("d1", "d1", "guide.monthly", t(3, month: 2), t(3), 9990, "USD", false, false, nil)),
            ("eve", subscription("e1", "e1", "guide.monthly", t(1, month: 2), t(1), 9990, "USD", false, false, nil)),
            ("eve", subscription("e2", "e1", "guide.monthly", t(4, 12), t(4, 12, month: 4), 9990, "USD", false, false, nil)),
        ]
        for (customer, payload) in transactions {
            try ledger.ingest(transaction: payload, jwsRepresentation: try authority.sign(payload), customerID: customer) { _ in [] }
        }
        let grace = JWSRenewalInfoDecodedPayload(
            originalTransactionId: "d1", autoRenewProductId: "guide.monthly", productId: "guide.monthly", autoRenewStatus: .on,
            isInBillingRetryPeriod: true, gracePeriodExpiresDate: t(5), signedDate: t(3), environment: .sandbox)
        try ledger.ingest(renewalInfo: grace, jwsRepresentation: try authority.sign(grace))
        return (path, ledger)
    }

    /// The figures worked out by hand (see the suite's customers).
    static let expected = """
    {"from": "2025-03-01T00:00:00Z", "to": "2025-03-06T00:00:00Z", "interval": "day", "as_of": "2025-03-06T00:00:00Z",
     "environment": null, "currency": null, "currencies_left_out": [], "period_source": "duration", "intervals": [
      {"start": "2025-03-01T00:00:00Z", "end": "2025-03-02T00:00:00Z", "active_subscriptions": 1, "active_trials": 2,
       "new_customers": 3, "new_trials": 2, "trials_ended": 0, "trials_converted": 0, "trial_conversion_rate": null,
       "new_paid_subscriptions": 0, "renewals": 0, "upgrades": 0, "product_changes_at_renewal": 0,
       "churned_subscriptions": 1, "churn_rate": 0.5, "refunds": 0, "refund_rate": 0,
       "money": {"GBP": \(money(nonSubscription: 4.99)), "USD": \(money(mrr: 9.99, churn: 9.99))}},
      {"start": "2025-03-02T00:00:00Z", "end": "2025-03-03T00:00:00Z", "active_subscriptions": 2, "active_trials": 0,
       "new_customers": 0, "new_trials": 0, "trials_ended": 2, "trials_converted": 1, "trial_conversion_rate": 0.5,
       "new_paid_subscriptions": 1, "renewals": 0, "upgrades": 0, "product_changes_at_renewal": 0,
       "churned_subscriptions": 0, "churn_rate": 0, "refunds": 0, "refund_rate": 0,
       "money": {"USD": \(money(mrr: 19.98, new: 9.99, subscription: 9.99))}},
      {"start": "2025-03-03T00:00:00Z", "end": "2025-03-04T00:00:00Z", "active_subscriptions": 3, "active_trials": 0,
       "new_customers": 0, "new_trials": 0, "trials_ended": 0, "trials_converted": 0, "trial_conversion_rate": null,
       "new_paid_subscriptions": 1, "renewals": 0, "upgrades": 1, "product_changes_at_renewal": 0,
       "churned_subscriptions": 0, "churn_rate": 0, "refunds": 0, "refund_rate": 0,
       "money": {"GBP": \(money(mrr: 2.99 * 52 / 12, new: 2.99 * 52 / 12, subscription: 2.99)),
                 "USD": \(money(mrr: 24.98, expansion: 5, subscription: 14.99))}},
      {"start": "2025-03-04T00:00:00Z", "end": "2025-03-05T00:00:00Z", "active_subscriptions": 3, "active_trials": 0,
       "new_customers": 0, "new_trials": 0, "trials_ended": 0, "trials_converted": 0, "trial_conversion_rate": null,
       "new_paid_subscriptions": 0, "renewals": 1, "upgrades": 0, "product_changes_at_renewal": 0,
       "churned_subscriptions": 1, "churn_rate": \(1.0 / 3), "refunds": 1, "refund_rate": 1,
       "money": {"GBP": \(money(mrr: 2.99 * 52 / 12)),
                 "USD": \(money(mrr: 19.98, reactivation: 9.99, churn: 14.99, subscription: 9.99, refunded: 14.99))}},
      {"start": "2025-03-05T00:00:00Z", "end": "2025-03-06T00:00:00Z", "active_subscriptions": 2, "active_trials": 0,
       "new_customers": 0, "new_trials": 0, "trials_ended": 0, "trials_converted": 0, "trial_conversion_rate": null,
       "new_paid_subscriptions": 0, "renewals": 0, "upgrades": 0, "product_changes_at_renewal": 0,
       "churned_subscriptions": 1, "churn_rate": \(1.0 / 3), "refunds": 0, "refund_rate": null,
       "money": {"GBP": \(money(mrr: 2.99 * 52 / 12)), "USD": \(money(mrr: 9.99, churn: 9.99))}}]}
    """

    static func money(mrr: Double = 0, new: Double = 0, reactivation: Double = 0, expansion: Double = 0, churn: Double = 0,
                      subscription: Double = 0, nonSubscription: Double = 0, refunded: Double = 0) -> String {
        """
        {"mrr": \(mrr), "mrr_new": \(new), "mrr_reactivation": \(reactivation), "mrr_expansion": \(expansion), "mrr_contraction": 0,
         "mrr_churn": \(churn), "subscription_revenue": \(subscription), "non_subscription_revenue": \(nonSubscription), "refunded": \(refunded)}
        """
    }

    @Test("The judge and the ledger count five hand-counted days as counted by hand")
    func fiveDays() throws {
        let (path, ledger) = try Self.ledger()
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(Self.expected.utf8)) as? [String: Any])
        let judged = try MetricsJudge.run(ledger: path, arguments: ["--from", "2025-03-01", "--to", "2025-03-05", "--interval", "day",
                                                                    "--as-of", "2025-03-06"])
        #expect(MetricsJudge.differences(judged.report, expected) == [])
        #expect(judged.problems.isEmpty, "\(judged.problems)")
        let query = try SubscriptionMetricsQuery(from: Self.time(1), to: Self.time(5), interval: .day, asOf: Self.time(6))
        let swift = try MetricsJudge.object(try ledger.subscriptionMetrics(query))
        #expect(MetricsJudge.differences(swift, expected) == [])
    }
}
