import Foundation

/// The statements that aggregate an experiment's phase for a report, written once for both
/// databases: each one metric family over the whole phase and every horizon at once, grouped
/// by variant (and horizon), so the database reads each customer's transactions once and Swift
/// reads a row per variant and horizon.
///
/// The statements over matured customers join the phase's exposures matured for the shortest
/// horizon to the transactions purchased within the longest window, `[exposed_date,
/// exposed_date + longest horizon)`, read from the index `store_transaction_for_experiments`
/// alone (``ExperimentReportIndex``). Each horizon's figures are then taken from the rows in
/// its own window, over the customers matured for it.
extension LedgerRecords {
    /// The exposures of the phase: per variant, every customer, those matured for each horizon
    /// (`matured_0`, `matured_1`, … in the order of ``ExperimentAggregatesQuery/horizons``),
    /// and the first and last exposure.
    public static func exposureCountsQuery(_ query: ExperimentAggregatesQuery) -> LedgerSQL {
        let matured = query.horizons.enumerated().map { position, days -> LedgerSQL in
            "CAST(sum(CASE WHEN exposed_date <= \(query.latestMaturedExposure(horizon: days)) THEN 1 ELSE 0 END) AS BIGINT) AS matured_\(sql: String(position))"
        }
        return """
            SELECT variant, count(*) AS exposed, \(sql: .joined(matured, separator: ", ")),
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
    /// variant for each horizon (`started_trial_0`, `paid_0`, `converted_0`, `refunded_0`, …):
    /// started a trial, paid, converted a trial, refunded (the other matured customers count
    /// with 0).
    ///
    /// A customer's transactions are first grouped by subscription (original transaction id)
    /// into dates that decide every horizon at once: the first free trial, the first paid
    /// purchase, the first refund (a revoked transaction counts at the later of its purchase
    /// and its revocation: it is refunded within a window when both are in it), and for each
    /// horizon the last paid purchase within its window. A subscription converted within a
    /// window when its first trial is in the window and a paid purchase in the window follows it.
    public static func outcomeCountsQuery(_ query: ExperimentAggregatesQuery) -> LedgerSQL {
        let lastPaid = query.horizons.enumerated().map { position, days -> LedgerSQL in
            """
            max(CASE WHEN t.price > 0 AND t.purchase_date < m.exposed_date + \(ExperimentAggregatesQuery.milliseconds(ofHorizon: days))
                THEN t.purchase_date END) AS last_paid_\(sql: String(position))
            """
        }
        let perCustomer = query.horizons.enumerated().map { position, days -> LedgerSQL in
            let end: LedgerSQL = "exposed_date + \(ExperimentAggregatesQuery.milliseconds(ofHorizon: days))"
            let index = String(position)
            return """
                max(CASE WHEN first_trial < \(sql: end) THEN 1 ELSE 0 END) AS started_trial_\(sql: index),
                max(CASE WHEN first_paid < \(sql: end) THEN 1 ELSE 0 END) AS paid_\(sql: index),
                max(CASE WHEN first_trial < \(sql: end) AND last_paid_\(sql: index) > first_trial THEN 1 ELSE 0 END) AS converted_\(sql: index),
                max(CASE WHEN first_refund < \(sql: end) THEN 1 ELSE 0 END) AS refunded_\(sql: index)
                """
        }
        let sums = query.horizons.enumerated().map { position, days -> LedgerSQL in
            let matured: LedgerSQL = "exposed_date <= \(query.latestMaturedExposure(horizon: days))"
            let index = String(position)
            return .joined(["started_trial", "paid", "converted", "refunded"].map { metric in
                "CAST(sum(CASE WHEN \(sql: matured) THEN \(sql: metric)_\(sql: index) ELSE 0 END) AS BIGINT) AS \(sql: metric)_\(sql: index)"
            }, separator: ", ")
        }
        return """
            WITH \(sql: maturedCustomers(query)),
            subscriptions AS (
                SELECT m.customer_id, m.variant, m.exposed_date,
                       min(CASE WHEN \(sql: isFreeTrial) THEN t.purchase_date END) AS first_trial,
                       min(CASE WHEN t.price > 0 THEN t.purchase_date END) AS first_paid,
                       min(CASE WHEN t.revocation_date > t.purchase_date THEN t.revocation_date
                                WHEN t.revocation_date IS NOT NULL THEN t.purchase_date END) AS first_refund,
                       \(sql: .joined(lastPaid, separator: ",\n"))
                FROM matured m JOIN store_transaction t ON \(sql: inLongestWindow(query))
                GROUP BY m.customer_id, m.variant, m.exposed_date, t.original_transaction_id
            ),
            outcomes AS (
                SELECT variant, exposed_date, \(sql: .joined(perCustomer, separator: ",\n"))
                FROM subscriptions GROUP BY customer_id, variant, exposed_date
            )
            SELECT variant, \(sql: .joined(sums, separator: ",\n"))
            FROM outcomes GROUP BY variant
            """
    }

    /// Net revenue per matured customer who has a row in `customer_revenue`, summed per
    /// horizon (its position in ``ExperimentAggregatesQuery/horizons``), variant and currency,
    /// as it is and capped, with each horizon's and currency's cap (the customers without a
    /// row count with 0, which adds nothing). The cap is the value at nearest rank
    /// `capRanks[h]` of all `maturedCustomers[h]` values sorted from the smallest: the
    /// customers without a row come first, so it is the value at position `capRank −
    /// (maturedCustomers − customers with a row)` of the rows, or 0 when that position is
    /// before the first.
    public static func revenueQuery(_ query: ExperimentAggregatesQuery, capRanks: [Int], maturedCustomers: [Int]) -> LedgerSQL {
        let capPosition = zip(capRanks, maturedCustomers).enumerated().map { position, figures -> LedgerSQL in
            "WHEN \(sql: String(position)) THEN \(figures.0) - (\(figures.1) - n.with_value)"
        }
        return """
            WITH \(sql: customerRevenue(query)),
            counted AS (SELECT horizon, currency, count(*) AS with_value FROM customer_revenue GROUP BY horizon, currency),
            ranked AS (
                SELECT horizon, currency, net, row_number() OVER (PARTITION BY horizon, currency ORDER BY net) AS position
                FROM customer_revenue
            ),
            cap AS MATERIALIZED (
                SELECT r.horizon, r.currency, r.net AS cap
                FROM ranked r JOIN counted n ON n.horizon = r.horizon AND n.currency = r.currency
                WHERE r.position = CASE r.horizon \(sql: .joined(capPosition, separator: " ")) END
            ),
            capped AS (
                SELECT r.horizon, r.variant, r.currency, r.net, coalesce(c.cap, 0) AS cap
                FROM customer_revenue r LEFT JOIN cap c ON c.horizon = r.horizon AND c.currency = r.currency
            )
            SELECT horizon, variant, currency, cap, count(*) AS customers, sum(net) AS net_sum, sum(net * net) AS net_squares,
                   sum(CASE WHEN net > cap THEN cap ELSE net END) AS capped_sum,
                   sum(CASE WHEN net > cap THEN cap * cap ELSE net * net END) AS capped_squares
            FROM capped GROUP BY horizon, variant, currency, cap
            """
    }

    /// The currencies matured customers paid in within each horizon's window that `rates`
    /// has no rate for, by horizon, then code.
    public static func currenciesLeftOutQuery(_ query: ExperimentAggregatesQuery, rates: ExperimentCurrencyRates) -> LedgerSQL {
        """
        WITH \(sql: maturedCustomers(query)), \(sql: spentPerCurrency(query)), \(sql: rateTable(rates))
        SELECT horizon, currency FROM spent WHERE currency NOT IN (SELECT currency FROM rate)
        GROUP BY horizon, currency ORDER BY horizon, currency\(.binaryCollation)
        """
    }

    /// `matured`: each customer of the phase matured for the shortest horizon, their variant
    /// and first exposure, in epoch ms.
    private static func maturedCustomers(_ query: ExperimentAggregatesQuery) -> LedgerSQL {
        """
        matured AS (
            SELECT customer_id, variant, exposed_date FROM experiment_exposure
            WHERE experiment = \(query.experiment) AND phase = \(query.phase) AND exposed_date <= \(query.latestExposureMaturedForAny)
        )
        """
    }

    /// Joins a transaction `t` to a matured customer `m` when purchased within their longest window.
    private static func inLongestWindow(_ query: ExperimentAggregatesQuery) -> LedgerSQL {
        """
        t.customer_id = m.customer_id AND t.purchase_date >= m.exposed_date
        AND t.purchase_date < m.exposed_date + \(query.longestHorizonMilliseconds)
        """
    }

    /// Whether the transaction `t` is a free trial: an introductory offer (offer type 1) whose
    /// discount is `FREE_TRIAL`.
    private static let isFreeTrial = "t.offer_type = 1 AND t.offer_discount_type = 'FREE_TRIAL'"

    /// `spent`: per horizon (its position), each customer matured for it who has a priced
    /// transaction within its window, and their net revenue per currency in milli-units: the
    /// prices of the window's transactions, less those revoked before the window ends.
    private static func spentPerCurrency(_ query: ExperimentAggregatesQuery) -> LedgerSQL {
        let nets = query.horizons.enumerated().map { position, days -> LedgerSQL in
            let end: LedgerSQL = "m.exposed_date + \(ExperimentAggregatesQuery.milliseconds(ofHorizon: days))"
            return """
                sum(CASE WHEN t.purchase_date >= \(sql: end) OR t.revocation_date < \(sql: end) THEN 0 ELSE t.price END) AS net_\(sql: String(position))
                """
        }
        let perHorizon = query.horizons.enumerated().map { position, days -> LedgerSQL in
            let index = String(position)
            return """
                SELECT \(sql: index) AS horizon, customer_id, variant, currency, net_\(sql: index) AS net FROM spent_by_window
                WHERE exposed_date <= \(query.latestMaturedExposure(horizon: days))
                  AND first_purchase < exposed_date + \(ExperimentAggregatesQuery.milliseconds(ofHorizon: days))
                """
        }
        return """
            spent_by_window AS (
                SELECT m.customer_id, m.variant, m.exposed_date, t.currency, min(t.purchase_date) AS first_purchase,
                       \(sql: .joined(nets, separator: ",\n"))
                FROM matured m JOIN store_transaction t ON \(sql: inLongestWindow(query)) AND t.price IS NOT NULL AND t.currency IS NOT NULL
                GROUP BY m.customer_id, m.variant, m.exposed_date, t.currency
            ),
            spent AS (
                \(sql: .joined(perHorizon, separator: "\nUNION ALL\n"))
            )
            """
    }

    /// `rate`: each currency of `rates`, the target's included, and its rate.
    private static func rateTable(_ rates: ExperimentCurrencyRates) -> LedgerSQL {
        let rows = rates.allRates.map { entry -> LedgerSQL in
            "(\(entry.currency), CAST(\(String(entry.rate)) AS DOUBLE PRECISION))"
        }
        return "rate(currency, factor) AS (VALUES \(sql: .joined(rows, separator: ", ")))"
    }

    /// `customer_revenue`: per horizon, each matured customer's net revenue, as a
    /// floating-point number of milli-units, per currency — or, with rates, converted and
    /// added up in the target currency, the currencies without a rate left out.
    private static func customerRevenue(_ query: ExperimentAggregatesQuery) -> LedgerSQL {
        guard let rates = query.rates else {
            return """
                \(sql: maturedCustomers(query)), \(sql: spentPerCurrency(query)),
                customer_revenue AS MATERIALIZED (SELECT horizon, variant, currency, CAST(net AS DOUBLE PRECISION) AS net FROM spent)
                """
        }
        return """
            \(sql: maturedCustomers(query)), \(sql: spentPerCurrency(query)), \(sql: rateTable(rates)),
            customer_revenue AS MATERIALIZED (
                SELECT s.horizon, s.customer_id, s.variant, CAST(\(rates.targetCurrency) AS TEXT) AS currency,
                       sum(CAST(s.net AS DOUBLE PRECISION) * r.factor) AS net
                FROM spent s JOIN rate r ON r.currency = s.currency
                GROUP BY s.horizon, s.customer_id, s.variant
            )
            """
    }
}
