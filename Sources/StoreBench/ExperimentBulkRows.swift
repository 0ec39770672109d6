/// The SQL that fills a ledger with an experiment at scale in a few statements (the
/// transactions in statements of ``transactionsPerStatement``), the rows made
/// by the database itself: customers, their first exposures, and their transactions.
///
/// Customer `i` (of `customers`) is exposed at `start + i` seconds to variant `control` or
/// `annual` in turn. Transaction `j` (of `transactions`) belongs to customer `j % customers`,
/// the `j / customers`-th of theirs, a ``period`` (two days by default) after the one before and
/// lasting as long, the first ``customerSpacing`` after the previous customer's: the first a free trial
/// for two customers in three, then paid renewals of the same original transaction, one in
/// five in euros; one in ninety-seven is revoked a day after its purchase.
struct ExperimentBulkRows {
    /// `sqlite` or `postgres`: how a series of numbers and a boolean are written.
    let backend: String
    let customers: Int
    let transactions: Int
    /// Epoch milliseconds of the first exposure.
    let start: Int64
    let experiment: String
    let phase: String
    /// Milliseconds between a customer's transactions, each lasting as long.
    var period: Int64 = 2 * 86_400_000
    /// Milliseconds between one customer's first transaction and the next customer's.
    var customerSpacing: Int64 = 1000

    /// The statements, in order.
    var statements: [String] {
        let day: Int64 = 86_400_000
        let purchase = "\(start) + (j % \(customers)) * \(customerSpacing) + (j / \(customers)) * \(period) + 60000"
        let isTrial = "(j / \(customers) = 0 AND j % 3 <> 0)"
        return [
            series(count: customers, as: "i") + """
             INSERT INTO customer (id, app_account_token, created_date)
             SELECT 'bench-' || i, NULL, \(start) FROM series
            """,
            series(count: customers, as: "i") + """
             INSERT INTO experiment_exposure (customer_id, experiment, phase, variant, exposed_date, policy_version, hook, placement)
             SELECT 'bench-' || i, '\(experiment)', '\(phase)', CASE WHEN i % 2 = 0 THEN 'control' ELSE 'annual' END,
                    \(start) + i * 1000, 'bench', 'product_style', 'store' FROM series
            """,
        ] + stride(from: 0, to: transactions, by: Self.transactionsPerStatement).map { first in
            series(from: first, count: min(Self.transactionsPerStatement, transactions - first), as: "j") + """
             INSERT INTO store_transaction (transaction_id, original_transaction_id, customer_id, product_id, product_type,
                 subscription_group_id, purchase_date, original_purchase_date, expires_date, quantity, revocation_date,
                 revocation_reason, is_upgraded, ownership_type, offer_type, offer_id, app_account_token, environment,
                 signed_date, jws, grant_state, unfinished_reason, unfinished_detail, grant_attempts, stored_date, finished_date,
                 price, currency, offer_discount_type)
             SELECT 'bench-t' || j, 'bench-o' || (j % \(customers)), 'bench-' || (j % \(customers)), 'pass.premium',
                 'Auto-Renewable Subscription', '6F3A93AB', \(purchase), \(start), \(purchase) + \(period), 1,
                 CASE WHEN j % 97 = 0 THEN \(purchase) + \(day) ELSE NULL END, CASE WHEN j % 97 = 0 THEN 0 ELSE NULL END,
                 \(falseValue), 'PURCHASED', CASE WHEN \(isTrial) THEN 1 ELSE NULL END, NULL, NULL, 'Sandbox', \(purchase),
                 'bench', 'granted', NULL, NULL, 1, \(purchase), \(purchase),
                 CASE WHEN \(isTrial) THEN 0 ELSE 11990 END, CASE WHEN j % 5 = 0 THEN 'EUR' ELSE 'USD' END,
                 CASE WHEN \(isTrial) THEN 'FREE_TRIAL' ELSE NULL END
             FROM series
            """
        }
    }

    /// How many transactions one statement inserts, so that each stays well within the
    /// ledger's statement deadline on PostgreSQL.
    static let transactionsPerStatement = 100_000

    /// The numbers `first..<first + count` as the column `name` of a common table `series`.
    private func series(from first: Int = 0, count: Int, as name: String) -> String {
        let last = first + count - 1
        return backend == "postgres"
            ? "WITH series(\(name)) AS (SELECT generate_series(CAST(\(first) AS BIGINT), \(last)))"
            : "WITH RECURSIVE series(\(name)) AS (SELECT \(first) UNION ALL SELECT \(name) + 1 FROM series WHERE \(name) < \(last))"
    }

    private var falseValue: String { backend == "postgres" ? "false" : "0" }
}
