import Foundation

/// One auto-renewable transaction as subscription metrics read it, in its subscription's order.
struct SubscriptionTransaction {
    /// Its original transaction id.
    var subscription: String
    /// Its product.
    var productID: String
    /// When it was purchased, in milliseconds since 1970, as the other dates.
    var purchaseDate: Int64
    /// When it expires.
    var expiresDate: Int64
    /// When it was revoked, if it was.
    var revocationDate: Int64?
    /// Whether a transaction of a higher level replaced it.
    var isUpgraded: Bool
    /// Its price in milli-units.
    var price: Int64
    /// Its currency, numbered by ``SubscriptionTimeline/currencyNumber(_:)``.
    var currency: Int
    /// Whether it is a free trial.
    var isTrial: Bool
}

/// Turns each subscription's transactions, read in order, into the events subscription metrics
/// count (``SubscriptionMetricEvent``), per day of the report: coverages, trials, renewals,
/// upgrades, churn and MRR movement; and every transaction's purchase, refund and customer, as
/// ``Ledger/subscriptionMetrics(_:)`` defines them.
struct SubscriptionTimeline {
    /// The events so far, by day, kind and currency number in one integer (see `add`).
    private var counts: [Int: (n: Int, amount: Double)] = [:]
    /// The currencies seen, each numbered by its place in ``currencyNames`` (none is 0).
    private var currencyNumbers: [String: Int] = ["": 0]
    private var currencyNames = [""]
    private var lastCurrency = (code: "", number: 0)
    /// Each customer's first purchase.
    private var firstPurchases: [String: Int64] = [:]
    private let query: SubscriptionMetricsQuery
    private let start: Int64
    private let end: Int64
    private let graceEnds: [String: Int64]

    /// How long after a trial ends a paid transaction of its subscription still converts it:
    /// 60 days, the longest billing retry.
    static let conversionWindow: Int64 = 60 * 86_400_000

    /// A counter for `query`, with each subscription's latest grace period end.
    init(query: SubscriptionMetricsQuery, graceEnds: [String: Int64]) {
        self.query = query
        self.graceEnds = graceEnds
        start = query.start.millisecondsSince1970
        end = min(query.end.millisecondsSince1970, query.asOf.millisecondsSince1970 + 1)
    }

    /// The events counted, one per day, kind and currency, each customer's first purchase
    /// among them.
    var events: [SubscriptionMetricEvent] {
        var timeline = self
        for first in firstPurchases.values { timeline.add(first, .newCustomer) }
        return timeline.counts.compactMap { key, counted in
            let day = (key >> 24) - 1, currency = (key >> 5) & 0x7FFFF
            return SubscriptionMetricEvent.Kind(rawValue: key & 0x1F).map {
                SubscriptionMetricEvent(day: day, kind: $0, currency: timeline.currencyNames[currency], n: counted.n, amount: counted.amount)
            }
        }
    }

    /// Counts a transaction of any type: its purchase and price (auto-renewable apart from the
    /// rest), its refund, and its customer's first purchase.
    mutating func countPurchase(customerID: String, purchaseDate: Int64, revocationDate: Int64?, isAutoRenewable: Bool,
                                price: Int64, currency: Int) {
        if let first = firstPurchases[customerID], first <= purchaseDate {} else { firstPurchases[customerID] = purchaseDate }
        add(purchaseDate, isAutoRenewable ? .subscriptionRevenue : .otherRevenue, currency: currency, amount: Double(price))
        if let revocationDate { add(revocationDate, .refund, currency: currency, amount: Double(price)) }
    }

    /// A paid coverage: from its start to its end, at its MRR in its currency.
    private struct Coverage {
        var start: Int64
        var end: Int64
        var mrr: Double
        var currency: Int
    }

    /// Counts the events of one subscription's transactions, in purchase order.
    mutating func count(_ transactions: [SubscriptionTransaction]) {
        var paid: [Coverage] = []
        var paidSoFar = 0
        for (index, transaction) in transactions.enumerated() {
            let previous = index > 0 ? transactions[index - 1] : nil
            let next = index + 1 < transactions.count ? transactions[index + 1] : nil
            let end = coverageEnd(transaction, nextStart: next?.purchaseDate)
            let at = transaction.purchaseDate
            if previous?.isUpgraded == true { add(at, .upgrade) }
            if transaction.isTrial {
                add(at, .trialCoverage)
                add(end, .trialCoverage, n: -1)
                add(at, .newTrial)
                let nextPaid = transactions[(index + 1)...].first { !$0.isTrial }?.purchaseDate
                let converted = nextPaid.map { $0 < end + Self.conversionWindow } ?? false
                add(end, .trialEnded, amount: converted ? 1 : 0)
                continue
            }
            paidSoFar += 1
            if paidSoFar == 1 {
                add(at, .newPaidSubscription)
            } else if previous?.isUpgraded != true {
                add(at, .renewal, amount: previous.map { $0.productID != transaction.productID } == true ? 1 : 0)
            }
            paid.append(Coverage(start: at, end: end, mrr: mrr(of: transaction), currency: transaction.currency))
            if next == nil, transaction.revocationDate == nil, let grace = graceEnds[transaction.subscription], grace > end {
                paid.append(Coverage(start: end, end: grace, mrr: paid[paid.count - 1].mrr, currency: transaction.currency))
            }
        }
        for (index, coverage) in paid.enumerated() {
            add(coverage.start, .paidCoverage, currency: coverage.currency, amount: coverage.mrr)
            add(coverage.end, .paidCoverage, currency: coverage.currency, n: -1, amount: -coverage.mrr)
            if index == 0 {
                add(coverage.start, .mrrNew, currency: coverage.currency, n: 0, amount: coverage.mrr)
            } else {
                let before = paid[index - 1]
                if before.end < coverage.start || before.currency != coverage.currency {
                    add(coverage.start, .mrrReactivation, currency: coverage.currency, n: 0, amount: coverage.mrr)
                } else if coverage.mrr > before.mrr {
                    add(coverage.start, .mrrExpansion, currency: coverage.currency, n: 0, amount: coverage.mrr - before.mrr)
                } else if coverage.mrr < before.mrr {
                    add(coverage.start, .mrrContraction, currency: coverage.currency, n: 0, amount: before.mrr - coverage.mrr)
                }
            }
            let after = index + 1 < paid.count ? paid[index + 1] : nil
            if after == nil || after!.start > coverage.end {
                add(coverage.end, .churn, currency: coverage.currency, amount: coverage.mrr)
            } else if after!.currency != coverage.currency {
                add(coverage.end, .churn, currency: coverage.currency, n: 0, amount: coverage.mrr)
            }
        }
    }

    /// When `transaction`'s coverage ends: the earliest of its expiry, its revocation and the
    /// next transaction's purchase, never before its own purchase.
    private func coverageEnd(_ transaction: SubscriptionTransaction, nextStart: Int64?) -> Int64 {
        var end = transaction.expiresDate
        if let revoked = transaction.revocationDate, revoked < end { end = revoked }
        if let nextStart, nextStart < end { end = nextStart }
        return max(end, transaction.purchaseDate)
    }

    /// The transaction's price over the months in its product's period: from the catalog, else
    /// its duration rounded to the nearest week, 1, 2, 3, 6 or 12 months.
    private func mrr(of transaction: SubscriptionTransaction) -> Double {
        Double(transaction.price) / (query.periodMonths[transaction.productID] ?? Self.months(of: transaction.expiresDate - transaction.purchaseDate))
    }

    /// The months a period of `duration` milliseconds is nearest: the boundaries are the
    /// midpoints between 7, 30.44, 60.88, 91.31, 182.62 and 365.25 days.
    static func months(of duration: Int64) -> Double {
        switch duration {
        case ..<1_617_408_000: 12.0 / 52
        case ..<3_945_024_000: 1
        case ..<6_574_608_000: 2
        case ..<11_833_776_000: 3
        case ..<23_667_984_000: 6
        default: 12
        }
    }

    /// The number events count `code` by, the next one for a currency not seen before.
    mutating func currencyNumber(_ code: String) -> Int {
        if code == lastCurrency.code { return lastCurrency.number }
        let number: Int
        if let known = currencyNumbers[code] {
            number = known
        } else {
            number = currencyNames.count
            currencyNumbers[code] = number
            currencyNames.append(code)
        }
        lastCurrency = (code, number)
        return number
    }

    /// Counts an event at `at`, when it is before the report's end: its day (from -1), kind
    /// (under 32) and currency number (under 2¹⁹) in one integer key, hashed faster than the
    /// three apart.
    private mutating func add(_ at: Int64, _ kind: SubscriptionMetricEvent.Kind, currency: Int = 0, n: Int = 1, amount: Double = 0) {
        guard at < end else { return }
        let day = at < start ? -1 : Int((at - start) / SubscriptionMetricsQuery.dayMilliseconds)
        let key = (day + 1) << 24 | currency << 5 | kind.rawValue
        let counted = counts[key] ?? (0, 0)
        counts[key] = (counted.n + n, counted.amount + amount)
    }
}
