import Foundation

/// The statements that aggregate an experiment's phase for a report, written once for both
/// databases: each one metric family over the whole phase, grouped by variant, so the database
/// reads the customers and Swift reads a row per variant.
///
/// Every statement over matured customers starts from the same table of them (`matured`): the
/// exposures of the phase whose window, `[exposed_date, exposed_date + horizon)`, has ended by
/// the report's time. A window's transactions are the customer's transactions purchased in it,
/// read from the index `store_transaction_for_experiments` alone (``ExperimentReportIndex``).
extension LedgerRecords {
    /// The exposures of the phase: per variant, every customer, the matured ones, and the first
    /// and last exposure.
    public static func exposureCountsQuery(_ query: ExperimentAggregatesQuery) -> LedgerSQL {
        """
        SELECT variant, count(*) AS exposed,
               CAST(sum(CASE WHEN exposed_date <= \(query.latestMaturedExposure) THEN 1 ELSE 0 END) AS BIGINT) AS matured,
               min(exposed_date) AS first_exposed, max(exposed_date) AS last_exposed
        FROM experiment_exposure WHERE experiment = \(query.experiment) AND phase = \(query.phase)
        GROUP BY variant
        """
    }

    /// The policy versions that exposed a customer in the phase, byte by byte in order.
    public static func exposurePolicyVersionsQuery(_ query: ExperimentAggregatesQuery) -> LedgerSQL {
        """
        SELECT policy_version FROM experiment_exposure WHERE experiment = \(query.experiment) AND phase = \(query.phase)
        GROUP BY policy_version ORDER BY policy_version\(.binaryCollation)
        """
    }

    /// How many customers the phase exposed to more than one variant.
    public static func customersInSeveralVariantsQuery(_ query: ExperimentAggregatesQuery) -> LedgerSQL {
        """
        SELECT count(*) AS customers FROM (
            SELECT customer_id FROM experiment_exposure WHERE experiment = \(query.experiment) AND phase = \(query.phase)
            GROUP BY customer_id HAVING count(DISTINCT variant) > 1
        ) AS several
        """
    }

    /// The yes-or-no metrics of the matured customers who have window transactions, summed per
    /// variant: started a trial, paid, converted a trial, refunded (the other matured customers
    /// count with 0). A customer's window transactions are first grouped by subscription
    /// (original transaction id), where a conversion is a paid purchase after the
    /// subscription's first trial.
    public static func outcomeCountsQuery(_ query: ExperimentAggregatesQuery) -> LedgerSQL {
        """
        WITH \(sql: maturedCustomers(query)),
        subscriptions AS (
            SELECT m.customer_id, m.variant,
                   max(CASE WHEN \(sql: isFreeTrial) THEN 1 ELSE 0 END) AS started_trial,
                   max(CASE WHEN t.price > 0 THEN 1 ELSE 0 END) AS paid,
                   max(CASE WHEN t.revocation_date < m.window_end THEN 1 ELSE 0 END) AS refunded,
                   min(CASE WHEN \(sql: isFreeTrial) THEN t.purchase_date END) AS first_trial,
                   max(CASE WHEN t.price > 0 THEN t.purchase_date END) AS last_paid
            FROM matured m JOIN store_transaction t ON \(sql: inWindow)
            GROUP BY m.customer_id, m.variant, t.original_transaction_id
        ),
        outcomes AS (
            SELECT variant, max(started_trial) AS started_trial, max(paid) AS paid,
                   max(CASE WHEN last_paid > first_trial THEN 1 ELSE 0 END) AS converted, max(refunded) AS refunded
            FROM subscriptions GROUP BY customer_id, variant
        )
        SELECT variant,
               CAST(sum(started_trial) AS BIGINT) AS started_trial, CAST(sum(paid) AS BIGINT) AS paid,
               CAST(sum(converted) AS BIGINT) AS converted, CAST(sum(refunded) AS BIGINT) AS refunded
        FROM outcomes GROUP BY variant
        """
    }

    /// Net revenue per matured customer who has a row in `customer_revenue`, summed per variant
    /// and currency as it is and capped, with each currency's cap (the customers without a
    /// row count with 0, which adds nothing). The cap is the value at nearest rank
    /// `capRank` of all `maturedCustomers` values sorted from the smallest: the customers
    /// without a row come first, so it is the value at position `capRank − (maturedCustomers −
    /// customers with a row)` of the rows, or 0 when that position is before the first.
    public static func revenueQuery(_ query: ExperimentAggregatesQuery, capRank: Int, maturedCustomers: Int) -> LedgerSQL {
        """
        WITH \(sql: customerRevenue(query)),
        ranked AS MATERIALIZED (
            SELECT variant, currency, net,
                   row_number() OVER (PARTITION BY currency ORDER BY net) AS position,
                   count(*) OVER (PARTITION BY currency) AS with_value
            FROM customer_revenue
        ),
        cap AS MATERIALIZED (
            SELECT currency, net AS cap FROM ranked WHERE position = \(capRank) - (\(maturedCustomers) - with_value)
        ),
        capped AS (
            SELECT r.variant, r.currency, r.net, coalesce(c.cap, 0) AS cap
            FROM ranked r LEFT JOIN cap c ON c.currency = r.currency
        )
        SELECT variant, currency, cap, count(*) AS customers, sum(net) AS net_sum, sum(net * net) AS net_squares,
               sum(CASE WHEN net > cap THEN cap ELSE net END) AS capped_sum,
               sum(CASE WHEN net > cap THEN cap * cap ELSE net * net END) AS capped_squares
        FROM capped GROUP BY variant, currency, cap
        """
    }

    /// The currencies matured customers paid in that `rates` have no rate for, by code.
    public static func currenciesLeftOutQuery(_ query: ExperimentAggregatesQuery, rates: ExperimentCurrencyRates) -> LedgerSQL {
        """
        WITH \(sql: maturedCustomers(query)), \(sql: spentPerCurrency), \(sql: rateTable(rates))
        SELECT currency FROM spent WHERE currency NOT IN (SELECT currency FROM rate)
        GROUP BY currency ORDER BY currency\(.binaryCollation)
        """
    }

    /// `matured`: each matured customer of the phase, their variant and window, in epoch ms.
    private static func maturedCustomers(_ query: ExperimentAggregatesQuery) -> LedgerSQL {
        """
        matured AS (
            SELECT customer_id, variant, exposed_date AS window_start, exposed_date + \(query.horizonMilliseconds) AS window_end
            FROM experiment_exposure
            WHERE experiment = \(query.experiment) AND phase = \(query.phase) AND exposed_date <= \(query.latestMaturedExposure)
        )
        """
    }

    /// Joins a transaction `t` to a matured customer `m` when purchased in their window.
    private static let inWindow = """
        t.customer_id = m.customer_id AND t.purchase_date >= m.window_start AND t.purchase_date < m.window_end
        """

    /// Whether the transaction `t` is a free trial: an introductory offer (offer type 1) whose
    /// discount is `FREE_TRIAL`.
    private static let isFreeTrial = "t.offer_type = 1 AND t.offer_discount_type = 'FREE_TRIAL'"

    /// `spent`: each matured customer's net revenue per currency, in milli-units: the prices of
    /// their window's transactions, less those revoked before the window ends.
    private static let spentPerCurrency = """
        spent AS (
            SELECT m.customer_id, m.variant, t.currency,
                   sum(CASE WHEN t.revocation_date < m.window_end THEN 0 ELSE t.price END) AS net
            FROM matured m JOIN store_transaction t ON \(inWindow) AND t.price IS NOT NULL AND t.currency IS NOT NULL
            GROUP BY m.customer_id, m.variant, t.currency
        )
        """

    /// `rate`: each currency of `rates`, the target's included, and its rate.
    private static func rateTable(_ rates: ExperimentCurrencyRates) -> LedgerSQL {
        let rows = rates.allRates.map { entry -> LedgerSQL in
            "(\(entry.currency), CAST(\(String(entry.rate)) AS DOUBLE PRECISION))"
        }
        return "rate(currency, factor) AS (VALUES \(sql: .joined(rows, separator: ", ")))"
    }

    /// `customer_revenue`: each matured customer's net revenue, as a floating-point number of
    /// milli-units, per currency — or, with rates, converted and added up in the target
    /// currency, the currencies without a rate left out.
    private static func customerRevenue(_ query: ExperimentAggregatesQuery) -> LedgerSQL {
        guard let rates = query.rates else {
            return """
                \(sql: maturedCustomers(query)), \(sql: spentPerCurrency),
                customer_revenue AS (SELECT customer_id, variant, currency, CAST(net AS DOUBLE PRECISION) AS net FROM spent)
                """
        }
        return """
            \(sql: maturedCustomers(query)), \(sql: spentPerCurrency), \(sql: rateTable(rates)),
            customer_revenue AS (
                SELECT s.customer_id, s.variant, CAST(\(rates.targetCurrency) AS TEXT) AS currency, sum(CAST(s.net AS DOUBLE PRECISION) * r.factor) AS net
                FROM spent s JOIN rate r ON r.currency = s.currency
                GROUP BY s.customer_id, s.variant
            )
            """
    }
}
