import Foundation

/// One auto-renewable transaction as subscription metrics read it, in its subscription's order.
struct SubscriptionTransaction {
    var subscription: String
    var transactionID: String
    var productID: String
    var purchaseDate: Int64
    var expiresDate: Int64
    var revocationDate: Int64?
    var isUpgraded: Bool
    var price: Int64
    var currency: String
    var isTrial: Bool
}

/// Turns each subscription's transactions, read in order, into the events subscription metrics
/// count (``SubscriptionMetricEvent``), per day of the report: coverages, trials, renewals,
/// upgrades, churn and MRR movement, as ``Ledger/subscriptionMetrics(_:)`` defines them.
struct SubscriptionTimeline {
    /// The events so far, by day, kind and currency.
    private(set) var counts: [EventKey: (n: Int, amount: Double)] = [:]
    private let query: SubscriptionMetricsQuery
    private let start: Int64
    private let end: Int64
    private let graceEnds: [String: Int64]

    /// How long after a trial ends a paid transaction of its subscription still converts it:
    /// 60 days, the longest billing retry.
    static let conversionWindow: Int64 = 60 * 86_400_000

    /// What events are counted by.
    struct EventKey: Hashable {
        var day: Int
        var kind: SubscriptionMetricEvent.Kind
        var currency: String
    }

    /// A counter for `query`, with each subscription's latest grace period end.
    init(query: SubscriptionMetricsQuery, graceEnds: [String: Int64]) {
        self.query = query
        self.graceEnds = graceEnds
        start = query.start.millisecondsSince1970
        end = min(query.end.millisecondsSince1970, query.asOf.millisecondsSince1970 + 1)
    }

    /// The events counted, one per day, kind and currency.
    var events: [SubscriptionMetricEvent] {
        counts.map { SubscriptionMetricEvent(day: $0.key.day, kind: $0.key.kind, currency: $0.key.currency, n: $0.value.n,
                                             amount: $0.value.amount) }
    }

    /// A paid coverage: from its start to its end, at its MRR in its currency.
    private struct Coverage {
        var start: Int64
        var end: Int64
        var mrr: Double
        var currency: String
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

    private mutating func add(_ at: Int64, _ kind: SubscriptionMetricEvent.Kind, currency: String = "", n: Int = 1, amount: Double = 0) {
        guard at < end else { return }
        let day = at < start ? -1 : Int((at - start) / SubscriptionMetricsQuery.dayMilliseconds)
        let key = EventKey(day: day, kind: kind, currency: currency)
        let counted = counts[key] ?? (0, 0)
        counts[key] = (counted.n + n, counted.amount + amount)
    }
}
