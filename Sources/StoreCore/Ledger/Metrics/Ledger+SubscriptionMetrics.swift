import Foundation

extension Ledger {
    /// A subscription business's figures per interval of `query`, counted from the stored
    /// transactions (and each subscription's latest renewal info, for grace periods), each
    /// subscription's transactions walked in order a page at a time and the purchases counted
    /// per day in the database; exact for any past date, the same on SQLite and PostgreSQL.
    ///
    /// Definitions (times in UTC; a transaction's price is what it carries; docs/metrics.md
    /// sets them beside RevenueCat's):
    /// - Only purchases count: a family member's shared copy (ownership `FAMILY_SHARED`) carries
    ///   the purchaser's price and is left out.
    /// - A **subscription** is the auto-renewable transactions of one original transaction id,
    ///   in purchase order. A **trial** transaction is an introductory offer (offer type 1)
    ///   whose discount is `FREE_TRIAL`; every other auto-renewable transaction is **paid**.
    /// - A transaction's **coverage** runs from its purchase to the earliest of its expiry, its
    ///   revocation and the next transaction of its subscription. A **grace period** is a paid
    ///   coverage from the end of a subscription's last, unrevoked paid transaction to its latest
    ///   renewal info's `grace_period_expires_date`; earlier grace periods are not known.
    ///   Billing retry is not active.
    /// - Each interval's **snapshot** is its last instant, or ``SubscriptionMetricsQuery/asOf``
    ///   itself for the interval that holds it. Events count in the interval they happen in, when
    ///   they happen by `asOf`.
    /// - **Active subscriptions** and **active trials**: paid and trial coverages at the
    ///   snapshot. **MRR**: the paid coverages' prices at the snapshot, each divided by the
    ///   months of its product's period (a week is 12/52 of a month): from the catalog's
    ///   ``SubscriptionMetricsQuery/periodMonths``, else the transaction's duration rounded to
    ///   the nearest week, 1, 2, 3, 6 or 12 months.
    /// - **New customers**: customers whose first transaction of any type was purchased in the
    ///   interval. **New trials**: trial transactions purchased. **Trials ended**: trial
    ///   coverages ended; **converted**: those whose subscription has a paid transaction
    ///   purchased after the trial's and within 60 days of its end.
    /// - **New paid subscriptions**: subscriptions' first paid transactions. **Renewals**: the
    ///   other paid transactions, unless they replace an upgraded one (**upgrades**, counted
    ///   apart); a renewal into another product is a **product change at renewal**.
    /// - **Churned**: paid coverages that ended with no paid coverage of the subscription begun
    ///   by then; the **churn rate** is over the active subscriptions of the snapshot before.
    /// - **MRR movement**, a coverage at a time: a subscription's first paid coverage is **new**;
    ///   a coverage begun after a gap (or in another currency) is a **reactivation**; one that
    ///   continues another adds its change of MRR as **expansion** or **contraction**; a coverage
    ///   that ends without continuation is **churn**. Each interval's MRR is the one before plus
    ///   new, reactivation and expansion, less contraction and churn.
    /// - **Revenue**: prices of transactions purchased, auto-renewable apart from the rest;
    ///   **refunds**: transactions revoked in the interval, counted and priced; the **refund
    ///   rate** is over the transactions purchased in it.
    /// - With ``SubscriptionMetricsQuery/rates``, every money figure is converted into the
    ///   target currency; a currency without a rate is listed as left out and not counted.
    ///
    /// - Throws: a storage failure.
    public func subscriptionMetrics(_ query: SubscriptionMetricsQuery) throws -> SubscriptionMetrics {
        let events = try reading { try $0.subscriptionMetricEvents(query) }
        return SubscriptionMetricsFold(query: query).metrics(of: events)
    }
}
