import Foundation

/// The statements subscription metrics are counted with, written once for both databases:
/// each subscription's transactions read in order, a page at a time, through the covering index
/// `store_transaction_for_metrics` (``SubscriptionMetricsIndex``), for Swift to walk
/// (`SubscriptionTimeline`); the grace periods of the latest renewal infos; and the purchases'
/// and refunds' events counted per day in the database. The definitions are
/// ``Ledger/subscriptionMetrics(_:)``'s.
extension LedgerRecords {
    /// The auto-renewable transactions the query counts, by original transaction id, purchase
    /// date and transaction id, after the one `after` names (from the first without it), at
    /// most ``SubscriptionMetricsQuery/pageSize``.
    public static func subscriptionTransactionsPageQuery(_ query: SubscriptionMetricsQuery,
                                                         after: (subscription: String, purchaseDate: Int64, transactionID: String)?) -> LedgerSQL {
        let resume: LedgerSQL = after.map { key in
            """
            AND (t.original_transaction_id, t.purchase_date, t.transaction_id)
                > (CAST(\(key.subscription) AS TEXT), CAST(\(key.purchaseDate) AS BIGINT), CAST(\(key.transactionID) AS TEXT))
            """
        } ?? ""
        return """
            SELECT t.original_transaction_id, t.purchase_date, t.transaction_id, t.product_id, t.expires_date, t.revocation_date,
                   CASE WHEN t.is_upgraded THEN 1 ELSE 0 END AS upgraded, coalesce(t.price, 0) AS price,
                   coalesce(t.currency, '') AS currency,
                   CASE WHEN t.offer_type = 1 AND t.offer_discount_type = 'FREE_TRIAL' THEN 1 ELSE 0 END AS trial
            FROM store_transaction t
            WHERE t.product_type = 'Auto-Renewable Subscription' AND t.expires_date IS NOT NULL AND \(sql: inEnvironment(query)) \(sql: resume)
            ORDER BY t.original_transaction_id, t.purchase_date, t.transaction_id
            LIMIT \(sql: String(query.pageSize))
            """
    }

    /// Each subscription's latest grace period end, from its renewal info.
    public static let subscriptionGraceQuery: LedgerSQL = """
        SELECT original_transaction_id, grace_period_expires_date FROM renewal_info WHERE grace_period_expires_date IS NOT NULL
        """

    /// The purchases' events of `query`, counted per day (`-1` for before the report) and
    /// currency: each customer's first transaction, every transaction purchased with its price
    /// (auto-renewable apart from the rest), every one revoked with its price.
    public static func purchaseEventsQuery(_ query: SubscriptionMetricsQuery) -> LedgerSQL {
        let start = query.start.millisecondsSince1970
        let end = min(query.end.millisecondsSince1970, query.asOf.millisecondsSince1970 + 1)
        let kind = { (kind: SubscriptionMetricEvent.Kind) in String(kind.rawValue) }
        return """
            WITH events AS (
                SELECT first_purchase AS at, \(sql: kind(.newCustomer)) AS kind, '' AS currency, 1 AS n, 0 AS amount FROM (
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

    /// The transactions counted: purchases (a family member's copy carries the purchaser's
    /// price, and is not one), of the query's environment or of every one.
    private static func inEnvironment(_ query: SubscriptionMetricsQuery) -> LedgerSQL {
        let purchased: LedgerSQL = "(t.ownership_type IS NULL OR t.ownership_type = 'PURCHASED')"
        guard let environment = query.environment else { return purchased }
        return "\(sql: purchased) AND t.environment = \(environment)"
    }
}
