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
        let column = { (column: SubscriptionMetricsColumn) in column.rawValue }
        while true {
            let page = try connection.rows(LedgerRecords.subscriptionTransactionsPageQuery(query, after: after))
            for row in page {
                let original = try row.text(at: column(.originalTransactionID)), purchaseDate = try row.integer(at: column(.purchaseDate))
                let productID = try row.text(at: column(.productID)), isAutoRenewable = try row.integer(at: column(.autoRenewable)) == 1
                let revocationDate = try row.optionalInteger(at: column(.revocationDate)), price = try row.integer(at: column(.price))
                let currency = try timeline.currencies.number(of: try row.text(at: column(.currency)))
                let group: Int
                switch query.grouping {
                case nil: group = 0
                case .product: group = try timeline.groups.number(of: productID)
                case .storefront: group = try timeline.groups.number(of: try row.text(at: column(.storefront)))
                }
                timeline.countPurchase(customerID: try row.text(at: column(.customerID)), purchaseDate: purchaseDate,
                                       revocationDate: revocationDate, isAutoRenewable: isAutoRenewable, price: price,
                                       currency: currency, group: group)
                if let first = subscription.first, first.subscription != original {
                    timeline.count(subscription)
                    subscription.removeAll(keepingCapacity: true)
                }
                if isAutoRenewable, let expiresDate = try row.optionalInteger(at: column(.expiresDate)) {
                    subscription.append(SubscriptionTransaction(
                        subscription: original, productID: productID, purchaseDate: purchaseDate,
                        expiresDate: expiresDate, revocationDate: revocationDate, isUpgraded: try row.integer(at: column(.upgraded)) == 1,
                        price: price, currency: currency, isTrial: try row.integer(at: column(.trial)) == 1, group: group))
                }
            }
            guard page.count == query.pageSize, let last = page.last else { break }
            after = (try last.text(at: column(.originalTransactionID)), try last.integer(at: column(.purchaseDate)),
                     try last.text(at: column(.transactionID)))
        }
        if !subscription.isEmpty { timeline.count(subscription) }
        return timeline.finish()
    }
}
