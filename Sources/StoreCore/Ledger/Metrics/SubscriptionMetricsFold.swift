import Foundation

/// Turns the ledger's events per day into each interval's figures: flows are the events of the
/// interval's days, snapshots the running sum of every change up to the interval's last day,
/// money converted with the query's rates.
struct SubscriptionMetricsFold {
    let query: SubscriptionMetricsQuery
    /// Each currency's rate into the target currency, when the query has rates.
    private let factors: [String: Double]?

    init(query: SubscriptionMetricsQuery) {
        self.query = query
        factors = query.rates.map { Dictionary(uniqueKeysWithValues: $0.allRates.map { ($0.currency, $0.rate) }) }
    }

    func metrics(of events: [SubscriptionMetricEvent]) -> SubscriptionMetrics {
        var leftOut = Set<String>()
        var byGroup: [String: [SubscriptionMetricEvent]] = [:]
        for event in events { if let group = event.group { byGroup[group, default: []].append(event) } }
        var metrics = SubscriptionMetrics(
            interval: query.interval, asOf: query.asOf, environment: query.environment, currency: query.rates?.targetCurrency,
            currenciesLeftOut: [], periodSource: query.periodMonths.isEmpty ? "duration" : "catalog",
            intervals: intervals(of: events.filter { $0.group == nil }, leftOut: &leftOut))
        metrics.currenciesLeftOut = leftOut.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        metrics.grouping = query.grouping
        metrics.customerID = query.customerID
        metrics.groups = byGroup.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { name in
            SubscriptionMetrics.Group(name: name, intervals: intervals(of: byGroup[name]!, leftOut: &leftOut))
        }
        return metrics
    }

    /// The intervals' figures from the events of one set of figures (the whole ledger's or one group's).
    private func intervals(of events: [SubscriptionMetricEvent], leftOut: inout Set<String>) -> [SubscriptionMetrics.Interval] {
        let boundaryDays = query.boundaryDays
        var intervals = zip(query.boundaries, query.boundaries.dropFirst()).map { SubscriptionMetrics.Interval(start: $0, end: $1) }
        var active = 0, trials = 0
        var mrr: [String: Double] = [:]
        let sorted = events.sorted { $0.day < $1.day }
        var next = sorted.startIndex
        // Every change before the report counts in the first snapshot.
        var before: SubscriptionMetrics.Interval?
        while next < sorted.endIndex, sorted[next].day < 0 {
            apply(sorted[next], to: &before, active: &active, trials: &trials, mrr: &mrr, leftOut: &leftOut)
            next += 1
        }
        for position in intervals.indices {
            intervals[position].activeSubscriptionsBefore = active
            var current: SubscriptionMetrics.Interval? = intervals[position]
            while next < sorted.endIndex, sorted[next].day < boundaryDays[position + 1] {
                apply(sorted[next], to: &current, active: &active, trials: &trials, mrr: &mrr, leftOut: &leftOut)
                next += 1
            }
            intervals[position] = current!
            intervals[position].activeSubscriptions = active
            intervals[position].activeTrials = trials
            for (currency, amount) in mrr where amount != 0 {
                intervals[position].money[currency, default: .init()].mrr = amount / 1000
            }
            intervals[position].money = intervals[position].money.filter { !$0.value.isZero }
        }
        return intervals
    }

    /// The currency `currency`'s amounts are reported in and the factor they are multiplied
    /// by, or nil when the rates have none for it.
    private func converted(_ currency: String) -> (currency: String, factor: Double)? {
        guard let factors, let target = query.rates?.targetCurrency else { return (currency, 1) }
        guard let factor = factors[currency] else { return nil }
        return (target, factor)
    }

    /// Counts `event` into the running snapshot figures and, when given, into `interval`'s flows.
    private func apply(_ event: SubscriptionMetricEvent, to interval: inout SubscriptionMetrics.Interval?, active: inout Int,
                       trials: inout Int, mrr: inout [String: Double], leftOut: inout Set<String>) {
        let money = event.amount == 0 || event.currency.isEmpty ? nil : converted(event.currency)
        if event.amount != 0, !event.currency.isEmpty, money == nil,
           [.paidCoverage, .subscriptionRevenue, .otherRevenue, .refund].contains(event.kind) {
            leftOut.insert(event.currency)
        }
        let amount = money.map { event.amount * $0.factor } ?? 0
        switch event.kind {
        case .paidCoverage:
            active += event.n
            if let money { mrr[money.currency, default: 0] += amount }
        case .trialCoverage:
            trials += event.n
        default:
            break
        }
        guard var flows = interval else { return }
        var figure: WritableKeyPath<SubscriptionMetrics.Money, Double>?
        switch event.kind {
        case .paidCoverage, .trialCoverage:
            break
        case .newCustomer: flows.newCustomers += event.n
        case .newTrial: flows.newTrials += event.n
        case .trialEnded:
            flows.trialsEnded += event.n
            flows.trialsConverted += Int(event.amount)
        case .newPaidSubscription: flows.newPaidSubscriptions += event.n
        case .renewal:
            flows.renewals += event.n
            flows.productChangesAtRenewal += Int(event.amount)
        case .upgrade: flows.upgrades += event.n
        case .churn:
            flows.churnedSubscriptions += event.n
            figure = \.mrrChurn
        case .mrrNew: figure = \.mrrNew
        case .mrrReactivation: figure = \.mrrReactivation
        case .mrrExpansion: figure = \.mrrExpansion
        case .mrrContraction: figure = \.mrrContraction
        case .subscriptionRevenue:
            flows.transactions += event.n
            figure = \.subscriptionRevenue
        case .otherRevenue:
            flows.transactions += event.n
            figure = \.nonSubscriptionRevenue
        case .refund:
            flows.refunds += event.n
            figure = \.refunded
        }
        if let figure, let money {
            flows.money[money.currency, default: .init()][keyPath: figure] += amount / 1000
        }
        interval = flows
    }
}
