import Foundation

extension SQLLedgerTransaction {
    public func subscriptionMetricEvents(_ query: SubscriptionMetricsQuery) throws -> [SubscriptionMetricEvent] {
        var graceEnds: [String: Int64] = [:]
        for row in try connection.rows(LedgerRecords.subscriptionGraceQuery) {
            graceEnds[try row.text("original_transaction_id")] = try row.integer("grace_period_expires_date")
        }
        var timeline = SubscriptionTimeline(query: query, graceEnds: graceEnds)
        var subscription: [SubscriptionTransaction] = []
        var after: (subscription: String, purchaseDate: Int64, transactionID: String)?
        while true {
            let page = try connection.rows(LedgerRecords.subscriptionTransactionsPageQuery(query, after: after))
            for row in page {
                let transaction = SubscriptionTransaction(
                    subscription: try row.text("original_transaction_id"), transactionID: try row.text("transaction_id"),
                    productID: try row.text("product_id"), purchaseDate: try row.integer("purchase_date"),
                    expiresDate: try row.integer("expires_date"), revocationDate: try row.optionalInteger("revocation_date"),
                    isUpgraded: try row.integer("upgraded") == 1, price: try row.integer("price"), currency: try row.text("currency"),
                    isTrial: try row.integer("trial") == 1)
                if let first = subscription.first, first.subscription != transaction.subscription {
                    timeline.count(subscription)
                    subscription.removeAll(keepingCapacity: true)
                }
                subscription.append(transaction)
            }
            guard page.count == query.pageSize, let last = subscription.last else { break }
            after = (last.subscription, last.purchaseDate, last.transactionID)
        }
        if !subscription.isEmpty { timeline.count(subscription) }
        var events = timeline.events
        for row in try connection.rows(LedgerRecords.purchaseEventsQuery(query)) {
            let code = Int(try row.integer("kind"))
            guard let kind = SubscriptionMetricEvent.Kind(rawValue: code) else {
                throw LedgerStorageFailure(message: "a metrics row has the unknown kind \(code)", isTransient: false)
            }
            events.append(SubscriptionMetricEvent(day: Int(try row.integer("day")), kind: kind, currency: try row.text("currency"),
                                                  n: Int(try row.integer("n")), amount: try row.real("amount")))
        }
        return events
    }
}
