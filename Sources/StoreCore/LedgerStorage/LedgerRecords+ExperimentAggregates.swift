import Foundation

/// The statements that aggregate an experiment's phase for a report, written once for both
/// databases: each one metric family over the whole phase and every horizon at once, grouped
/// by variant, so the database reads each customer's transactions once and Swift reads a row
/// per variant (and currency).
///
/// The statements over matured customers join the phase's exposures matured for the shortest
/// horizon, one customer after another (`experiment_exposure_by_phase`), to their transactions
/// purchased within the longest window, `[exposed_date, exposed_date + longest horizon)`, read
/// subscription by subscription and currency by currency from the index
/// `store_transaction_for_experiments` alone (``ExperimentReportIndex``): SQLite then forms each
/// customer's groups as it reads them, without sorting. Each horizon's figures are taken from
/// the rows in its own window, over the customers matured for it.
extension LedgerRecords {
    /// The memory each sort or hash table of a report's read may take on PostgreSQL
    /// (`work_mem`), against the server's default of 4 MB: 100,000 matured customers' groups
    /// fit in it.
    public static let reportWorkMemory = "64MB"

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

    /// Net revenue per matured customer who paid within the window, summed per variant and
    /// currency for each horizon (`customers_0`, `net_sum_0`, `net_squares_0`, `capped_sum_0`,
    /// `capped_squares_0`, `cap_0`, …), as it is and capped, with each horizon's and currency's
    /// cap (the customers without a value count with 0, which adds nothing).
    ///
    /// The cap is the value at nearest rank `capRanks[h]` of all `maturedCustomers[h]` values
    /// sorted from the smallest, the customers without a value among them as 0: counted from
    /// the largest, the value at position `maturedCustomers[h] − capRanks[h]` (from 0) of the
    /// customers with a value, or 0 when there are not that many. Each is picked by a
    /// `LIMIT 1 OFFSET` over one currency's values, which keeps only that many of the largest.
    public static func revenueQuery(_ query: ExperimentAggregatesQuery, capRanks: [Int], maturedCustomers: [Int]) -> LedgerSQL {
        let source = query.rates == nil ? "spent_by_window" : "customer_revenue"
        let caps = zip(capRanks, maturedCustomers).enumerated().map { position, figures -> LedgerSQL in
            let net = "w.net_\(position)"
            return """
                coalesce((SELECT \(sql: net) FROM \(sql: source) w WHERE w.currency = c.currency AND \(sql: net) IS NOT NULL
                          ORDER BY \(sql: net) DESC LIMIT 1 OFFSET \(sql: String(max(0, figures.1 - figures.0)))), 0) AS cap_\(sql: String(position))
                """
        }
        let sums = query.horizons.indices.map { position -> LedgerSQL in
            let net = "w.net_\(position)", cap = "c.cap_\(position)", index = String(position)
            return """
                \(sql: cap) AS cap_\(sql: index), count(\(sql: net)) AS customers_\(sql: index),
                coalesce(sum(\(sql: net)), 0) AS net_sum_\(sql: index), coalesce(sum(\(sql: net) * \(sql: net)), 0) AS net_squares_\(sql: index),
                coalesce(sum(CASE WHEN \(sql: net) > \(sql: cap) THEN \(sql: cap) ELSE \(sql: net) END), 0) AS capped_sum_\(sql: index),
                coalesce(sum(CASE WHEN \(sql: net) > \(sql: cap) THEN \(sql: cap) * \(sql: cap) ELSE \(sql: net) * \(sql: net) END), 0) AS capped_squares_\(sql: index)
                """
        }
        let capColumns = query.horizons.indices.map { "c.cap_\($0)" }.joined(separator: ", ")
        return """
            WITH \(sql: customerRevenue(query)),
            cap AS MATERIALIZED (
                SELECT c.currency, \(sql: .joined(caps, separator: ",\n"))
                FROM (SELECT DISTINCT currency FROM \(sql: source)) AS c
            )
            SELECT w.variant, w.currency, \(sql: .joined(sums, separator: ",\n"))
            FROM \(sql: source) w JOIN cap c ON c.currency = w.currency
            GROUP BY w.variant, w.currency, \(sql: capColumns)
            """
    }

    /// The currencies matured customers paid in within each horizon's window that `rates`
    /// has no rate for, by horizon, then code.
    public static func currenciesLeftOutQuery(_ query: ExperimentAggregatesQuery, rates: ExperimentCurrencyRates) -> LedgerSQL {
        let perHorizon = query.horizons.indices.map { position -> LedgerSQL in
            """
            SELECT DISTINCT \(sql: String(position)) AS horizon, currency FROM spent_by_window
            WHERE net_\(sql: String(position)) IS NOT NULL AND currency NOT IN (SELECT currency FROM rate)
            """
        }
        return """
            WITH \(sql: maturedCustomers(query)), \(sql: spentPerCurrency(query)), \(sql: rateTable(rates))
            SELECT horizon, currency FROM (\(sql: .joined(perHorizon, separator: "\nUNION ALL\n"))) AS left_out
            ORDER BY horizon, currency\(.binaryCollation)
            """
    }

    /// `matured`: each customer of the phase matured for the shortest horizon, their variant
    /// and first exposure, in epoch ms; read where it is joined, so that it comes in customer
    /// order.
    private static func maturedCustomers(_ query: ExperimentAggregatesQuery) -> LedgerSQL {
        """
        matured AS NOT MATERIALIZED (
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

    /// `spent_by_window`: each matured customer who has a priced transaction within the longest
    /// window, per currency, with their net revenue in milli-units for each horizon (`net_0`,
    /// `net_1`, …: the prices of the window's transactions, less those revoked before the
    /// window ends), or NULL for a horizon they are not matured for or did not pay within.
    /// Summed first per subscription, as the transactions come from the index.
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
                CASE WHEN exposed_date <= \(query.latestMaturedExposure(horizon: days))
                      AND min(first_purchase) < exposed_date + \(ExperimentAggregatesQuery.milliseconds(ofHorizon: days))
                     THEN CAST(sum(net_\(sql: index)) AS DOUBLE PRECISION) END AS net_\(sql: index)
                """
        }
        return """
            spent_by_subscription AS (
                SELECT m.customer_id, m.variant, m.exposed_date, t.currency, min(t.purchase_date) AS first_purchase,
                       \(sql: .joined(nets, separator: ",\n"))
                FROM matured m JOIN store_transaction t ON \(sql: inLongestWindow(query)) AND t.price IS NOT NULL AND t.currency IS NOT NULL
                GROUP BY m.customer_id, m.variant, m.exposed_date, t.original_transaction_id, t.currency
            ),
            spent_by_window AS MATERIALIZED (
                SELECT customer_id, variant, currency, \(sql: .joined(perHorizon, separator: ",\n"))
                FROM spent_by_subscription GROUP BY customer_id, variant, exposed_date, currency
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

    /// With `rates`, `customer_revenue`: each matured customer's net revenue for each horizon
    /// (`net_0`, `net_1`, …), converted from each currency with a rate and added up in the
    /// target currency (the currencies without a rate left out); without, what
    /// `spent_by_window` holds per currency.
    private static func customerRevenue(_ query: ExperimentAggregatesQuery) -> LedgerSQL {
        guard let rates = query.rates else {
            return "\(sql: maturedCustomers(query)), \(sql: spentPerCurrency(query))"
        }
        let converted = query.horizons.indices.map { position -> LedgerSQL in
            "sum(s.net_\(sql: String(position)) * r.factor) AS net_\(sql: String(position))"
        }
        return """
            \(sql: maturedCustomers(query)), \(sql: spentPerCurrency(query)), \(sql: rateTable(rates)),
            customer_revenue AS MATERIALIZED (
                SELECT s.customer_id, s.variant, CAST(\(rates.targetCurrency) AS TEXT) AS currency,
                       \(sql: .joined(converted, separator: ", "))
                FROM spent_by_window s JOIN rate r ON r.currency = s.currency
                GROUP BY s.customer_id, s.variant
            )
            """
    }
}
