import Foundation

/// The statement subscription metrics are counted with, written once for both databases: every
/// fact the metrics are made of becomes an event at the time it happened, and the events are
/// counted per UTC day of the report and kind in the database, so Swift reads a few rows per
/// day (``SubscriptionMetricEvent``). The definitions are ``Ledger/subscriptionMetrics(_:)``'s.
///
/// Each subscription's transactions are read in order through the index
/// `store_transaction_for_metrics` (``SubscriptionMetricsIndex``), which also gives each one
/// its neighbours (the previous transaction's product and upgrade, the next one's start, the
/// next paid one's start, how many paid ones came before).
extension LedgerRecords {
    /// The events of `query`, counted per day (`-1` for before the report), kind and currency:
    /// `day`, `kind`, `currency`, `n` (a count, or a change of one) and `amount` (milli-units,
    /// or a second count).
    public static func subscriptionMetricEventsQuery(_ query: SubscriptionMetricsQuery) -> LedgerSQL {
        let start = query.start.millisecondsSince1970
        let end = min(query.end.millisecondsSince1970, query.asOf.millisecondsSince1970 + 1)
        let kind = { (kind: SubscriptionMetricEvent.Kind) in String(kind.rawValue) }
        return """
            WITH \(sql: periodTable(query.periodMonths)),
            tx AS MATERIALIZED (
                SELECT t.original_transaction_id AS sub, t.product_id, t.purchase_date AS s, t.expires_date, t.revocation_date,
                       coalesce(t.price, 0) AS price, t.currency,
                       CASE WHEN t.offer_type = 1 AND t.offer_discount_type = 'FREE_TRIAL' THEN 1 ELSE 0 END AS trial,
                       CAST(coalesce(t.price, 0) AS DOUBLE PRECISION) / coalesce(p.months, \(sql: durationMonths)) AS mrr,
                       lag(CASE WHEN t.is_upgraded THEN 1 ELSE 0 END) OVER w AS previous_upgraded,
                       lag(t.product_id) OVER w AS previous_product,
                       lead(t.purchase_date) OVER w AS next_start,
                       min(CASE WHEN \(sql: isPaid) THEN t.purchase_date END) OVER (w ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS next_paid,
                       sum(CASE WHEN \(sql: isPaid) THEN 1 ELSE 0 END) OVER w AS paid_position
                FROM store_transaction t LEFT JOIN period p ON p.product_id = t.product_id
                WHERE t.product_type = 'Auto-Renewable Subscription' AND t.expires_date IS NOT NULL AND \(sql: inEnvironment(query))
                WINDOW w AS (PARTITION BY t.original_transaction_id ORDER BY t.purchase_date, t.transaction_id)
            ),
            ended AS (
                SELECT tx.*, CASE WHEN revocation_date IS NOT NULL AND revocation_date < expires_date THEN revocation_date ELSE expires_date END AS e0
                FROM tx
            ),
            coverage AS MATERIALIZED (
                SELECT sub, product_id, s, revocation_date, price, currency, trial, mrr, previous_upgraded, previous_product, next_start,
                       next_paid, paid_position,
                       CASE WHEN next_start IS NOT NULL AND next_start < e0 THEN (CASE WHEN next_start < s THEN s ELSE next_start END)
                            WHEN e0 < s THEN s ELSE e0 END AS e
                FROM ended
            ),
            grace AS (
                SELECT c.sub, c.e AS s, r.grace_period_expires_date AS e, c.mrr, c.currency
                FROM coverage c JOIN renewal_info r ON r.original_transaction_id = c.sub
                WHERE c.next_start IS NULL AND c.trial = 0 AND c.revocation_date IS NULL AND r.grace_period_expires_date > c.e
            ),
            paid AS MATERIALIZED (
                SELECT sub, s, e, mrr, coalesce(currency, '') AS currency,
                       lag(e) OVER q AS previous_end, lag(mrr) OVER q AS previous_mrr, lag(coalesce(currency, '')) OVER q AS previous_currency,
                       lead(s) OVER q AS next_paid_start, lead(coalesce(currency, '')) OVER q AS next_currency,
                       row_number() OVER q AS position
                FROM (SELECT sub, s, e, mrr, currency, 0 AS is_grace FROM coverage WHERE trial = 0
                      UNION ALL SELECT sub, s, e, mrr, currency, 1 AS is_grace FROM grace) AS covered
                WINDOW q AS (PARTITION BY sub ORDER BY s, is_grace)
            ),
            events AS (
                SELECT s AS at, \(sql: kind(.paidCoverage)) AS kind, currency, 1 AS n, mrr AS amount FROM paid
                UNION ALL SELECT e, \(sql: kind(.paidCoverage)), currency, -1, -mrr FROM paid
                UNION ALL SELECT s, \(sql: kind(.trialCoverage)), '', 1, 0 FROM coverage WHERE trial = 1
                UNION ALL SELECT e, \(sql: kind(.trialCoverage)), '', -1, 0 FROM coverage WHERE trial = 1
                UNION ALL SELECT s, \(sql: kind(.newTrial)), '', 1, 0 FROM coverage WHERE trial = 1
                UNION ALL SELECT e, \(sql: kind(.trialEnded)), '', 1,
                       CASE WHEN next_paid IS NOT NULL AND next_paid < e + \(sql: String(Self.conversionWindow)) THEN 1 ELSE 0 END
                       FROM coverage WHERE trial = 1
                UNION ALL SELECT s, \(sql: kind(.newPaidSubscription)), '', 1, 0 FROM coverage WHERE trial = 0 AND paid_position = 1
                UNION ALL SELECT s, \(sql: kind(.renewal)), '', 1, CASE WHEN previous_product <> product_id THEN 1 ELSE 0 END
                       FROM coverage WHERE trial = 0 AND paid_position > 1 AND coalesce(previous_upgraded, 0) = 0
                UNION ALL SELECT s, \(sql: kind(.upgrade)), '', 1, 0 FROM coverage WHERE previous_upgraded = 1
                UNION ALL SELECT s,
                       CASE WHEN position = 1 THEN \(sql: kind(.mrrNew))
                            WHEN previous_end < s OR previous_currency <> currency THEN \(sql: kind(.mrrReactivation))
                            WHEN mrr > previous_mrr THEN \(sql: kind(.mrrExpansion)) ELSE \(sql: kind(.mrrContraction)) END,
                       currency, 0,
                       CASE WHEN position = 1 OR previous_end < s OR previous_currency <> currency THEN mrr
                            WHEN mrr > previous_mrr THEN mrr - previous_mrr ELSE previous_mrr - mrr END
                       FROM paid WHERE position = 1 OR previous_end < s OR previous_currency <> currency OR mrr <> previous_mrr
                UNION ALL SELECT e, \(sql: kind(.churn)), currency,
                       CASE WHEN next_paid_start IS NULL OR next_paid_start > e THEN 1 ELSE 0 END,
                       CASE WHEN next_paid_start IS NULL OR next_paid_start > e OR next_currency <> currency THEN mrr ELSE 0 END
                       FROM paid WHERE next_paid_start IS NULL OR next_paid_start > e OR next_currency <> currency
                UNION ALL SELECT first_purchase, \(sql: kind(.newCustomer)), '', 1, 0 FROM (
                       SELECT min(purchase_date) AS first_purchase FROM store_transaction t
                       WHERE \(sql: inEnvironment(query)) GROUP BY customer_id) AS firsts
                UNION ALL SELECT purchase_date,
                       CASE WHEN product_type = 'Auto-Renewable Subscription' THEN \(sql: kind(.subscriptionRevenue))
                            ELSE \(sql: kind(.otherRevenue)) END,
                       coalesce(currency, ''), 1, coalesce(price, 0)
                       FROM store_transaction t WHERE \(sql: inEnvironment(query))
                UNION ALL SELECT revocation_date, \(sql: kind(.refund)), coalesce(currency, ''), 1, coalesce(price, 0)
                       FROM store_transaction t WHERE revocation_date IS NOT NULL AND \(sql: inEnvironment(query))
            )
            SELECT day, kind, currency, CAST(sum(n) AS BIGINT) AS n, CAST(sum(amount) AS DOUBLE PRECISION) AS amount
            FROM (
                SELECT CASE WHEN at < \(start) THEN -1 ELSE (at - \(start)) / \(sql: String(SubscriptionMetricsQuery.dayMilliseconds)) END AS day,
                       kind, currency, n, amount
                FROM events WHERE at < \(end)
            ) AS dated
            GROUP BY day, kind, currency
            """
    }

    /// How long after a trial ends a paid transaction of its subscription still converts it:
    /// 60 days, the longest billing retry.
    static let conversionWindow: Int64 = 60 * 86_400_000

    /// Whether the transaction `t` is paid: not a free trial.
    private static let isPaid = "(CASE WHEN t.offer_type = 1 AND t.offer_discount_type = 'FREE_TRIAL' THEN 0 ELSE 1 END) = 1"

    /// Months in the period of `t`, from its duration (`expires_date - purchase_date`) rounded
    /// to the nearest of a week, 1, 2, 3, 6 and 12 months (7, 30.44, 60.88, 91.31, 182.62 and
    /// 365.25 days): the boundaries are the midpoints between them.
    private static let durationMonths = """
        CASE WHEN t.expires_date - t.purchase_date < 1617408000 THEN 12.0 / 52
             WHEN t.expires_date - t.purchase_date < 3945024000 THEN 1.0
             WHEN t.expires_date - t.purchase_date < 6574608000 THEN 2.0
             WHEN t.expires_date - t.purchase_date < 11833776000 THEN 3.0
             WHEN t.expires_date - t.purchase_date < 23667984000 THEN 6.0
             ELSE 12.0 END
        """

    /// The transactions counted: purchases (a family member's copy carries the purchaser's
    /// price, and is not one), of the query's environment or of every one.
    private static func inEnvironment(_ query: SubscriptionMetricsQuery) -> LedgerSQL {
        let purchased: LedgerSQL = "(t.ownership_type IS NULL OR t.ownership_type = 'PURCHASED')"
        guard let environment = query.environment else { return purchased }
        return "\(sql: purchased) AND t.environment = \(environment)"
    }

    /// `period(product_id, months)`: each product whose period a catalog gives.
    private static func periodTable(_ periods: [String: Double]) -> LedgerSQL {
        let rows = periods.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { product, months -> LedgerSQL in
            "SELECT CAST(\(product) AS TEXT) AS product_id, CAST(\(String(months)) AS DOUBLE PRECISION) AS months"
        }
        guard !rows.isEmpty else {
            return "period AS (SELECT CAST(NULL AS TEXT) AS product_id, CAST(NULL AS DOUBLE PRECISION) AS months WHERE 1 = 0)"
        }
        return "period AS (\(sql: .joined(rows, separator: " UNION ALL ")))"
    }
}
