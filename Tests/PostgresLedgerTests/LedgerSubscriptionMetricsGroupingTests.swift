import Foundation
import StoreCore
import Testing

/// Subscription metrics grouped by product and by storefront, on SQLite and PostgreSQL: each
/// group's figures add up to the whole ledger's, and a subscription that moves between groups
/// moves its MRR from one to the other.
@Suite struct LedgerSubscriptionMetricsGroupingTests {
    typealias Base = LedgerSubscriptionMetricsTests
    typealias Purchase = Base.Purchase
    static let day = Base.day

    static func report(_ ledger: Ledger, by grouping: SubscriptionMetricsGrouping, pageSize: Int = SubscriptionMetricsQuery.defaultPageSize)
        throws -> SubscriptionMetrics {
        try ledger.subscriptionMetrics(SubscriptionMetricsQuery(
            from: LedgerPayloads.date(0), to: LedgerPayloads.date(59 * day), interval: .day, asOf: LedgerPayloads.date(60 * day),
            grouping: grouping, pageSize: pageSize))
    }

    /// The hand-built ledger's customers, each in a storefront but ed, whose payloads do not say.
    static func ledgerWithStorefronts(on backend: LedgerBackend) throws -> Ledger {
        let ledger = try backend.freshLedger()
        try Base.ingest([Purchase(id: "a1", at: 0, days: 7, price: 0, trial: true, storefront: "USA"),
                         Purchase(id: "a2", originalID: "a1", at: 7 * day, storefront: "USA")], customerID: "ana", into: ledger)
        try Base.ingest([Purchase(id: "b1", product: "pass.yearly", at: 2 * day, days: 365, price: 49990, revokedAt: 10 * day,
                                  storefront: "GBR")], customerID: "bo", into: ledger)
        try Base.ingest([Purchase(id: "c1", product: "seeds", type: .consumable, at: 3 * day, days: nil, price: 1990, currency: "EUR",
                                  storefront: "FRA")], customerID: "cy", into: ledger)
        try Base.ingest([Purchase(id: "d1", at: 5 * day, storefront: "USA")], customerID: "di", into: ledger)
        try Base.ingest([Purchase(id: "e1", at: day, upgraded: true),
                         Purchase(id: "e2", originalID: "e1", product: "pass.premium", at: 15 * day, price: 14990)],
                        customerID: "ed", into: ledger)
        return ledger
    }

    /// Every count and sum that adds across groups does, interval by interval, and each group's
    /// MRR moves by its own movement.
    static func expectGroupsAddUp(_ metrics: SubscriptionMetrics) {
        for (position, whole) in metrics.intervals.enumerated() {
            let parts = metrics.groups.map { $0.intervals[position] }
            let counts: [KeyPath<SubscriptionMetrics.Interval, Int>] = [
                \.activeSubscriptions, \.activeTrials, \.newCustomers, \.newTrials, \.trialsEnded, \.trialsConverted,
                \.newPaidSubscriptions, \.renewals, \.upgrades, \.productChangesAtRenewal, \.churnedSubscriptions, \.refunds, \.transactions,
            ]
            for count in counts {
                #expect(parts.reduce(0) { $0 + $1[keyPath: count] } == whole[keyPath: count], "\(count) on \(whole.start)")
            }
            let sums: [KeyPath<SubscriptionMetrics.Money, Double>] = [\.mrr, \.subscriptionRevenue, \.nonSubscriptionRevenue, \.refunded]
            for currency in Set(whole.money.keys).union(parts.flatMap(\.money.keys)) {
                for sum in sums {
                    let added = parts.reduce(0.0) { $0 + ($1.money[currency]?[keyPath: sum] ?? 0) }
                    #expect(abs(added - (whole.money[currency]?[keyPath: sum] ?? 0)) < 1e-9, "\(sum) in \(currency) on \(whole.start)")
                }
            }
        }
        for group in metrics.groups {
            Base.expectMRRMovesByItsMovement(group.intervals, of: "\(group.name)'s")
        }
    }

    @Test("by product: each product's figures, an upgrade churning MRR from one product into the other", arguments: LedgerBackend.available)
    func byProduct(on backend: LedgerBackend) throws {
        let ledger = try Base.ledger(on: backend)
        let metrics = try Self.report(ledger, by: .product)
        #expect(metrics.intervals == (try Base.report(ledger)).intervals, "grouping leaves the whole ledger's figures as they are")
        #expect(metrics.grouping == .product)
        #expect(metrics.groups.map(\.name) == ["pass.monthly", "pass.premium", "pass.yearly", "seeds"])
        Self.expectGroupsAddUp(metrics)
        let monthly = metrics.groups[0].intervals, premium = metrics.groups[1].intervals
        #expect(monthly[15].money["USD"]?.mrrChurn == 9.99 && monthly[15].churnedSubscriptions == 0,
                "ed's monthly MRR leaves the monthly plan, and no subscription churned")
        #expect(premium[15].money["USD"]?.mrrReactivation == 14.99 && premium[15].upgrades == 1 && premium[15].activeSubscriptions == 1)
        #expect(metrics.intervals[15].money["USD"]?.mrrExpansion == 5, "the whole ledger still sees an expansion")
        #expect(metrics.groups[3].intervals[3].money["EUR"]?.nonSubscriptionRevenue == 1.99)
        #expect(metrics.groups[2].intervals[10].refunds == 1 && metrics.groups[2].intervals[10].churnedSubscriptions == 1)
    }

    @Test("by storefront: each storefront's figures, transactions without one in a group of their own", arguments: LedgerBackend.available)
    func byStorefront(on backend: LedgerBackend) throws {
        let metrics = try Self.report(try Self.ledgerWithStorefronts(on: backend), by: .storefront)
        #expect(metrics.groups.map(\.name) == ["", "FRA", "GBR", "USA"])
        Self.expectGroupsAddUp(metrics)
        let total = { (name: String, count: KeyPath<SubscriptionMetrics.Interval, Int>) in
            metrics.groups.first { $0.name == name }!.intervals.reduce(0) { $0 + $1[keyPath: count] }
        }
        #expect(total("USA", \.newCustomers) == 2 && total("USA", \.newTrials) == 1 && total("USA", \.newPaidSubscriptions) == 2)
        #expect(total("", \.upgrades) == 1 && total("GBR", \.refunds) == 1 && total("FRA", \.transactions) == 1)
    }

    @Test("grouped figures are the same read a few transactions at a time, and on both databases", arguments: LedgerBackend.available)
    func groupedPagesAgree(on backend: LedgerBackend) throws {
        let ledger = try Self.ledgerWithStorefronts(on: backend)
        for grouping in SubscriptionMetricsGrouping.allCases {
            let whole = try Self.report(ledger, by: grouping)
            for pageSize in [1, 2, 3] {
                #expect(try Self.report(ledger, by: grouping, pageSize: pageSize) == whole, "\(grouping), \(pageSize) a page")
            }
        }
    }

    @Test("SQLite and PostgreSQL count the same grouped figures", .enabled(if: LedgerBackend.available.count == 2))
    func backendsAgree() throws {
        for grouping in SubscriptionMetricsGrouping.allCases {
            let reports = try LedgerBackend.allCases.map { try Self.report(try Self.ledgerWithStorefronts(on: $0), by: grouping) }
            #expect(reports[0] == reports[1], "\(grouping)")
        }
    }
}
