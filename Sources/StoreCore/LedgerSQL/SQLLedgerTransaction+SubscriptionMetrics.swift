import Foundation

extension SQLLedgerTransaction {
    public func subscriptionMetricEvents(_ query: SubscriptionMetricsQuery) throws -> [SubscriptionMetricEvent] {
        try connection.rows(LedgerRecords.subscriptionMetricEventsQuery(query)).map { row in
            let code = Int(try row.integer("kind"))
            guard let kind = SubscriptionMetricEvent.Kind(rawValue: code) else {
                throw LedgerStorageFailure(message: "a metrics row has the unknown kind \(code)", isTransient: false)
            }
            return SubscriptionMetricEvent(day: Int(try row.integer("day")), kind: kind, currency: try row.text("currency"),
                                           n: Int(try row.integer("n")), amount: try row.real("amount"))
        }
    }
}
