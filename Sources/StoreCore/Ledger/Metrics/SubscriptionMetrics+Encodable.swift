import Foundation

/// The JSON of a report: `storerules ledger metrics --json` and
/// `GET /v1/admin/metrics/subscriptions` print it; times are ISO 8601 in UTC, money in units
/// of its currency, rates null when their denominator is 0; `customer` names the customer whose
/// share it is, when it is one's; with a grouping, `by` names it and
/// `groups` lists each group's `name` and `intervals`.
extension SubscriptionMetrics: Encodable {
    private enum CodingKeys: String, CodingKey {
        case from, to, interval, asOf = "as_of", environment, currency, currenciesLeftOut = "currencies_left_out"
        case periodSource = "period_source", intervals, by, groups, customer
    }

    private enum GroupKeys: String, CodingKey {
        case name, intervals
    }

    /// Writes the report.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.time(intervals.first?.start ?? asOf), forKey: .from)
        try container.encode(Self.time(intervals.last?.end ?? asOf), forKey: .to)
        try container.encode(interval, forKey: .interval)
        try container.encode(Self.time(asOf), forKey: .asOf)
        try container.encode(environment, forKey: .environment)
        try container.encode(currency, forKey: .currency)
        if let customerID { try container.encode(customerID, forKey: .customer) }
        try container.encode(currenciesLeftOut, forKey: .currenciesLeftOut)
        try container.encode(periodSource, forKey: .periodSource)
        try container.encode(intervals, forKey: .intervals)
        if let grouping {
            try container.encode(grouping, forKey: .by)
            var list = container.nestedUnkeyedContainer(forKey: .groups)
            for group in groups {
                var entry = list.nestedContainer(keyedBy: GroupKeys.self)
                try entry.encode(group.name, forKey: .name)
                try entry.encode(group.intervals, forKey: .intervals)
            }
        }
    }

    /// `date` as ISO 8601 in UTC, with milliseconds when it has them.
    static func time(_ date: Date) -> String {
        date.millisecondsSince1970 % 1000 == 0
            ? date.formatted(.iso8601) : date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

extension SubscriptionMetrics.Interval: Encodable {
    private enum CodingKeys: String, CodingKey {
        case start, end, activeSubscriptions = "active_subscriptions", activeTrials = "active_trials", newCustomers = "new_customers"
        case newTrials = "new_trials", trialsEnded = "trials_ended", trialsConverted = "trials_converted"
        case trialConversionRate = "trial_conversion_rate", newPaidSubscriptions = "new_paid_subscriptions", renewals, upgrades
        case productChangesAtRenewal = "product_changes_at_renewal", churnedSubscriptions = "churned_subscriptions"
        case churnRate = "churn_rate", refunds, refundRate = "refund_rate", money
    }

    /// Writes the interval's figures.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(SubscriptionMetrics.time(start), forKey: .start)
        try container.encode(SubscriptionMetrics.time(end), forKey: .end)
        try container.encode(activeSubscriptions, forKey: .activeSubscriptions)
        try container.encode(activeTrials, forKey: .activeTrials)
        try container.encode(newCustomers, forKey: .newCustomers)
        try container.encode(newTrials, forKey: .newTrials)
        try container.encode(trialsEnded, forKey: .trialsEnded)
        try container.encode(trialsConverted, forKey: .trialsConverted)
        try container.encode(trialConversionRate, forKey: .trialConversionRate)
        try container.encode(newPaidSubscriptions, forKey: .newPaidSubscriptions)
        try container.encode(renewals, forKey: .renewals)
        try container.encode(upgrades, forKey: .upgrades)
        try container.encode(productChangesAtRenewal, forKey: .productChangesAtRenewal)
        try container.encode(churnedSubscriptions, forKey: .churnedSubscriptions)
        try container.encode(churnRate, forKey: .churnRate)
        try container.encode(refunds, forKey: .refunds)
        try container.encode(refundRate, forKey: .refundRate)
        try container.encode(money, forKey: .money)
    }
}
