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
    /// Its currency, numbered by ``SubscriptionTimeline/currencies``.
    var currency: Int
    /// Whether it is a free trial.
    var isTrial: Bool
    /// The group its events count in besides the whole ledger's, numbered by
    /// ``SubscriptionTimeline/groups``; 0 when the query groups nothing.
    var group: Int
}

/// Turns each subscription's transactions, read in order, into the events subscription metrics
/// count (``SubscriptionMetricEvent``), per day of the report: coverages, trials, renewals,
/// upgrades, churn and MRR movement; and every transaction's purchase, refund and customer, as
/// ``Ledger/subscriptionMetrics(_:)`` defines them.
struct SubscriptionTimeline {
    /// The events so far, by day, kind and currency number in one integer (see `add`).
    private var counts: [Int: (n: Int, amount: Double)] = [:]
    /// The currencies seen, numbered as events count them (no currency is 0): as many as the
    /// key's 19 bits number.
    var currencies = NameNumbering(zero: "", limit: (1 << 19) - 1, what: "currencies")
    /// The groups seen (products or storefronts), numbered as events count them (0 is the whole
    /// ledger's figures): as many as the key's 17 bits number.
    var groups = NameNumbering(zero: nil, limit: (1 << 17) - 1, what: "groups to count the metrics by")
    /// Each customer's first purchase and the group it counts in.
    private var firstPurchases: [String: (date: Int64, group: Int)] = [:]
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
    /// among them: what is left once every transaction was counted.
    mutating func finish() -> [SubscriptionMetricEvent] {
        for first in firstPurchases.values {
            add(first.date, .newCustomer, inGroup: first.group)
        }
        return counts.compactMap { key, counted in
            let group = key >> 46, day = ((key >> 24) & 0x3FFFFF) - 1, currency = (key >> 5) & 0x7FFFF
            return SubscriptionMetricEvent.Kind(rawValue: key & 0x1F).map {
                SubscriptionMetricEvent(day: day, kind: $0, currency: currencies.name(of: currency), n: counted.n,
                                        amount: counted.amount, group: group == 0 ? nil : groups.name(of: group))
            }
        }
    }

    /// Counts a transaction of any type: its purchase and price (auto-renewable apart from the
    /// rest), its refund, and its customer's first purchase.
    mutating func countPurchase(customerID: String, purchaseDate: Int64, revocationDate: Int64?, isAutoRenewable: Bool,
                                price: Int64, currency: Int, group: Int) {
        if firstPurchases[customerID].map({ purchaseDate < $0.date }) ?? true {
            firstPurchases[customerID] = (purchaseDate, group)
        }
        let kind: SubscriptionMetricEvent.Kind = isAutoRenewable ? .subscriptionRevenue : .otherRevenue
        add(purchaseDate, kind, currency: currency, amount: Double(price), inGroup: group)
        if let revocationDate { add(revocationDate, .refund, currency: currency, amount: Double(price), inGroup: group) }
    }

    /// A paid coverage: from its start to its end, at its MRR in its currency.
    private struct Coverage {
        var start: Int64
        var end: Int64
        var mrr: Double
        var currency: Int
        var group: Int
    }

    /// Counts the events of one subscription's transactions, in purchase order: in the whole
    /// ledger's figures and, when the query groups them, in their groups'.
    mutating func count(_ transactions: [SubscriptionTransaction]) {
        count(transactions, grouped: false)
        if query.grouping != nil { count(transactions, grouped: true) }
    }

    /// Counts the events of one subscription's transactions, each in its transaction's group
    /// when `grouped`, else in the whole ledger's. A coverage that continues one of another
    /// group moves its MRR as one in another currency does: churned (not counted as a churned
    /// subscription) from the group it leaves, reactivated in the one it enters.
    private mutating func count(_ transactions: [SubscriptionTransaction], grouped: Bool) {
        var paid: [Coverage] = []
        var paidSoFar = 0
        for (index, transaction) in transactions.enumerated() {
            let previous = index > 0 ? transactions[index - 1] : nil
            let next = index + 1 < transactions.count ? transactions[index + 1] : nil
            let end = coverageEnd(transaction, nextStart: next?.purchaseDate)
            let at = transaction.purchaseDate, group = grouped ? transaction.group : 0
            if previous?.isUpgraded == true { add(at, .upgrade, group: group) }
            if transaction.isTrial {
                add(at, .trialCoverage, group: group)
                add(end, .trialCoverage, n: -1, group: group)
                add(at, .newTrial, group: group)
                let nextPaid = transactions[(index + 1)...].first { !$0.isTrial }?.purchaseDate
                let converted = nextPaid.map { $0 < end + Self.conversionWindow } ?? false
                add(end, .trialEnded, amount: converted ? 1 : 0, group: group)
                continue
            }
            paidSoFar += 1
            if paidSoFar == 1 {
                add(at, .newPaidSubscription, group: group)
            } else if previous?.isUpgraded != true {
                add(at, .renewal, amount: previous.map { $0.productID != transaction.productID } == true ? 1 : 0, group: group)
            }
            paid.append(Coverage(start: at, end: end, mrr: mrr(of: transaction), currency: transaction.currency, group: group))
            if next == nil, transaction.revocationDate == nil, let grace = graceEnds[transaction.subscription], grace > end {
                paid.append(Coverage(start: end, end: grace, mrr: paid[paid.count - 1].mrr, currency: transaction.currency, group: group))
            }
        }
        for (index, coverage) in paid.enumerated() {
            add(coverage.start, .paidCoverage, currency: coverage.currency, amount: coverage.mrr, group: coverage.group)
            add(coverage.end, .paidCoverage, currency: coverage.currency, n: -1, amount: -coverage.mrr, group: coverage.group)
            if index == 0 {
                add(coverage.start, .mrrNew, currency: coverage.currency, n: 0, amount: coverage.mrr, group: coverage.group)
            } else {
                let before = paid[index - 1]
                if before.end < coverage.start || before.currency != coverage.currency || before.group != coverage.group {
                    add(coverage.start, .mrrReactivation, currency: coverage.currency, n: 0, amount: coverage.mrr, group: coverage.group)
                } else if coverage.mrr > before.mrr {
                    add(coverage.start, .mrrExpansion, currency: coverage.currency, n: 0, amount: coverage.mrr - before.mrr, group: coverage.group)
                } else if coverage.mrr < before.mrr {
                    add(coverage.start, .mrrContraction, currency: coverage.currency, n: 0, amount: before.mrr - coverage.mrr, group: coverage.group)
                }
            }
            let after = index + 1 < paid.count ? paid[index + 1] : nil
            if after == nil || after!.start > coverage.end {
                add(coverage.end, .churn, currency: coverage.currency, amount: coverage.mrr, group: coverage.group)
            } else if after!.currency != coverage.currency || after!.group != coverage.group {
                add(coverage.end, .churn, currency: coverage.currency, n: 0, amount: coverage.mrr, group: coverage.group)
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

    /// Counts an event in the whole ledger's figures and, when `group` is not 0, in that group's too.
    private mutating func add(_ at: Int64, _ kind: SubscriptionMetricEvent.Kind, currency: Int = 0, amount: Double = 0,
                              inGroup group: Int) {
        add(at, kind, currency: currency, amount: amount)
        if group != 0 { add(at, kind, currency: currency, amount: amount, group: group) }
    }

    /// Counts an event at `at`, when it is before the report's end: its group (under 2¹⁷), day
    /// (from -1, under 2²² - 1), kind (under 32) and currency number (under 2¹⁹) in one integer
    /// key, hashed faster than the four apart.
    private mutating func add(_ at: Int64, _ kind: SubscriptionMetricEvent.Kind, currency: Int = 0, n: Int = 1, amount: Double = 0,
                              group: Int = 0) {
        guard at < end else { return }
        let day = at < start ? -1 : Int((at - start) / SubscriptionMetricsQuery.dayMilliseconds)
        let key = group << 46 | (day + 1) << 24 | currency << 5 | kind.rawValue
        let counted = counts[key] ?? (0, 0)
        counts[key] = (counted.n + n, counted.amount + amount)
    }
}
