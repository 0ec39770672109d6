import Foundation

/// The statements subscription metrics are counted with, written once for both databases: the
/// transactions read in order of their subscriptions, a page at a time, through the covering
/// index `store_transaction_for_metrics` (``SubscriptionMetricsIndex``), for Swift to walk
/// (`SubscriptionTimeline`); and the grace periods of the latest renewal infos. The
/// definitions are ``Ledger/subscriptionMetrics(_:)``'s.
extension LedgerRecords {
    /// The transactions the query counts, of every type, by original transaction id, purchase
    /// date and transaction id, after the one `after` names (from the first without it), at
    /// most ``SubscriptionMetricsQuery/pageSize``; read by position, in the order of
    /// ``SubscriptionMetricsColumn``.
    public static func subscriptionTransactionsPageQuery(_ query: SubscriptionMetricsQuery,
                                                         after: (subscription: String, purchaseDate: Int64, transactionID: String)?) -> LedgerSQL {
        let resume: LedgerSQL = after.map { key in
            """
            AND (t.original_transaction_id, t.purchase_date, t.transaction_id)
                > (CAST(\(key.subscription) AS TEXT), CAST(\(key.purchaseDate) AS BIGINT), CAST(\(key.transactionID) AS TEXT))
            """
        } ?? ""
        return """
            SELECT t.original_transaction_id, t.purchase_date, t.transaction_id, t.product_id, t.customer_id,
                   CASE WHEN t.product_type = 'Auto-Renewable Subscription' THEN 1 ELSE 0 END AS auto_renewable,
                   t.expires_date, t.revocation_date, CASE WHEN t.is_upgraded THEN 1 ELSE 0 END AS upgraded,
                   coalesce(t.price, 0) AS price, coalesce(t.currency, '') AS currency,
                   CASE WHEN t.offer_type = 1 AND t.offer_discount_type = 'FREE_TRIAL' THEN 1 ELSE 0 END AS trial,
                   coalesce(t.storefront, '') AS storefront
            FROM store_transaction t
            WHERE \(sql: inEnvironment(query)) \(sql: resume)
            ORDER BY t.original_transaction_id, t.purchase_date, t.transaction_id
            LIMIT \(sql: String(query.pageSize))
            """
    }

    /// Each subscription's latest grace period end, from its renewal info.
    public static let subscriptionGraceQuery: LedgerSQL = """
        SELECT original_transaction_id, grace_period_expires_date FROM renewal_info WHERE grace_period_expires_date IS NOT NULL
        """

    /// The transactions counted: purchases (a family member's copy carries the purchaser's
    /// price, and is not one), of the query's environment or of every one, of its customer or
    /// of every one.
    private static func inEnvironment(_ query: SubscriptionMetricsQuery) -> LedgerSQL {
        var counted: LedgerSQL = "(t.ownership_type IS NULL OR t.ownership_type = 'PURCHASED')"
        if let environment = query.environment { counted = "\(sql: counted) AND t.environment = \(environment)" }
        if let customerID = query.customerID { counted = "\(sql: counted) AND t.customer_id = \(customerID)" }
        return counted
    }
}

/// The columns of ``LedgerRecords/subscriptionTransactionsPageQuery(_:after:)``, by position.
public enum SubscriptionMetricsColumn: Int {
    /// The original transaction id, the transaction's purchase date and its id: the page's order.
    case originalTransactionID, purchaseDate, transactionID
    /// The product, the customer, and 1 for an auto-renewable subscription.
    case productID, customerID, autoRenewable
    /// The expiry (NULL for a product that has none), the revocation, and 1 when upgraded.
    case expiresDate, revocationDate, upgraded
    /// The price in milli-units (0 for none), the currency ('' for none), and 1 for a free trial.
    case price, currency, trial
    /// The storefront ('' for none).
    case storefront
}
