import Foundation
import StoreCore
import Testing

/// Subscription metrics counted by the database: known answers for a hand-built ledger, day by
/// day, on SQLite and PostgreSQL.
@Suite struct LedgerSubscriptionMetricsTests {
    typealias Payloads = LedgerPayloads
    static let day = Payloads.day

    /// One transaction of a hand-built ledger.
    struct Purchase {
        var id: String
        var originalID: String?
        var product = "pass.monthly"
        var type = TransactionProductType.autoRenewableSubscription
        var at: Int64
        var days: Int64? = 30
        var price: Int64 = 9990
        var currency = "USD"
        var trial = false
        var upgraded = false
        var revokedAt: Int64?
        var familyShared = false
        var storefront: String?
    }

    static func ingest(_ purchases: [Purchase], customerID: String, into ledger: Ledger) throws {
        for purchase in purchases {
            var payload = Payloads.transaction(
                id: purchase.id, originalID: purchase.originalID, productID: purchase.product, type: purchase.type,
                purchasedAt: purchase.at, expiresAt: purchase.days.map { purchase.at + $0 * day }, signedAt: purchase.at,
                revokedAt: purchase.revokedAt)
            payload.price = purchase.price
            payload.currency = purchase.currency
            payload.isUpgraded = purchase.upgraded
            payload.storefront = purchase.storefront
            if purchase.familyShared { payload.inAppOwnershipType = .familyShared }
            if purchase.trial {
                payload.offerType = .introductoryOffer
                payload.offerDiscountType = .freeTrial
            }
            try ledger.ingest(transaction: payload, jwsRepresentation: Payloads.jws(payload), customerID: customerID, decide: Payloads.grants)
        }
    }

    /// Five customers over sixty days: a trial that converts and renews, a yearly plan refunded,
    /// a consumable in euros, a monthly plan that lapses and comes back, and an upgrade; and a
    /// family member's shared copy of a plan, which counts in none of the figures.
    static func ledger(on backend: LedgerBackend) throws -> Ledger {
        let ledger = try backend.freshLedger()
        try ingest([Purchase(id: "a1", at: 0, days: 7, price: 0, trial: true),
                    Purchase(id: "a2", originalID: "a1", at: 7 * day),
                    Purchase(id: "a3", originalID: "a1", at: 37 * day)], customerID: "ana", into: ledger)
        try ingest([Purchase(id: "b1", product: "pass.yearly", at: 2 * day, days: 365, price: 49990, revokedAt: 10 * day)],
                   customerID: "bo", into: ledger)
        try ingest([Purchase(id: "c1", product: "seeds", type: .consumable, at: 3 * day, days: nil, price: 1990, currency: "EUR")],
                   customerID: "cy", into: ledger)
        try ingest([Purchase(id: "d1", at: 5 * day), Purchase(id: "d2", originalID: "d1", at: 50 * day)], customerID: "di", into: ledger)
        try ingest([Purchase(id: "f1", at: 7 * day, familyShared: true)], customerID: "fay", into: ledger)
        try ingest([Purchase(id: "e1", at: day, upgraded: true),
                    Purchase(id: "e2", originalID: "e1", product: "pass.premium", at: 15 * day, price: 14990)], customerID: "ed", into: ledger)
        return ledger
    }

    static func close(_ figure: Double?, _ expected: Double) -> Bool {
        guard let figure else { return false }
        return abs(figure - expected) <= 1e-9 * max(1, abs(expected))
    }

    static func report(_ ledger: Ledger, interval: SubscriptionMetricsInterval = .day, days: Int64 = 59) throws -> SubscriptionMetrics {
        try ledger.subscriptionMetrics(SubscriptionMetricsQuery(
            from: Payloads.date(0), to: Payloads.date(days * day), interval: interval, asOf: Payloads.date(60 * day)))
    }

    @Test("a hand-built ledger gives the figures worked out by hand, day by day", arguments: LedgerBackend.available)
    func knownAnswers(on backend: LedgerBackend) throws {
        let metrics = try Self.report(try Self.ledger(on: backend))
        let days = metrics.intervals
        #expect(days.count == 60)
        #expect(days[0].newTrials == 1 && days[0].activeTrials == 1 && days[0].newCustomers == 1 && days[0].activeSubscriptions == 0)
        #expect(days[1].newPaidSubscriptions == 1 && days[1].activeSubscriptions == 1 && days[1].money["USD"]?.mrrNew == 9.99)
        #expect(Self.close(days[2].money["USD"]?.mrrNew, 49.99 / 12), "a yearly plan's price over twelve months")
        #expect(days[3].money["EUR"]?.nonSubscriptionRevenue == 1.99 && (days[3].money["EUR"]?.mrr ?? 0) == 0, "a consumable adds no MRR")
        #expect(days[7].trialsEnded == 1 && days[7].trialsConverted == 1 && days[7].trialConversionRate == 1)
        #expect(days[7].activeTrials == 0 && days[7].activeSubscriptions == 4, "ana, bo, di and ed")
        #expect(days[10].refunds == 1 && days[10].money["USD"]?.refunded == 49.99)
        #expect(days[10].churnedSubscriptions == 1 && days[10].churnRate == 0.25 && Self.close(days[10].money["USD"]?.mrrChurn, 49.99 / 12))
        #expect(days[15].upgrades == 1 && days[15].renewals == 0 && days[15].money["USD"]?.mrrExpansion == 5)
        #expect(days[35].churnedSubscriptions == 1 && days[35].money["USD"]?.mrrChurn == 9.99, "di's month ends unrenewed")
        #expect(days[37].renewals == 1 && days[37].productChangesAtRenewal == 0)
        #expect(days[50].money["USD"]?.mrrReactivation == 9.99 && days[50].newPaidSubscriptions == 0)
        #expect(days[59].activeSubscriptions == 2 && Self.close(days[59].money["USD"]?.mrr, 9.99 + 9.99), "ana renewed, di came back; ed lapsed on day 45")
        Self.expectMRRMovesByItsMovement(days, of: "the ledger's")
    }

    /// Each interval's MRR in dollars is the one before plus its movement: new, reactivation
    /// and expansion, less contraction and churn.
    static func expectMRRMovesByItsMovement(_ intervals: [SubscriptionMetrics.Interval], of whose: String) {
        for (previous, next) in zip(intervals, intervals.dropFirst()) {
            let before = previous.money["USD"]?.mrr ?? 0, money = next.money["USD"] ?? .init()
            let moved = before + money.mrrNew + money.mrrReactivation + money.mrrExpansion - money.mrrContraction - money.mrrChurn
            #expect(abs(moved - money.mrr) < 1e-9, "\(whose) MRR moves by its movement on \(next.start)")
        }
    }

    @Test("weeks and months add up the days' flows and end on the last day's snapshot", arguments: LedgerBackend.available)
    func longerIntervalsAddUpDays(on backend: LedgerBackend) throws {
        let ledger = try Self.ledger(on: backend)
        let days = try Self.report(ledger)
        for interval in [SubscriptionMetricsInterval.week, .month] {
            let longer = try Self.report(ledger, interval: interval)
            for period in longer.intervals {
                let inside = days.intervals.filter { $0.start >= period.start && $0.end <= period.end }
                guard inside.count == Int(period.end.timeIntervalSince(period.start) / 86_400) else { continue }
                #expect(period.renewals == inside.reduce(0) { $0 + $1.renewals })
                #expect(period.churnedSubscriptions == inside.reduce(0) { $0 + $1.churnedSubscriptions })
                #expect(period.activeSubscriptions == inside.last?.activeSubscriptions)
            }
        }
    }

    @Test("read a few transactions at a time, pages that end inside a subscription give the same figures",
          arguments: LedgerBackend.available)
    func pagesGiveTheSameFigures(on backend: LedgerBackend) throws {
        let ledger = try Self.ledger(on: backend)
        let whole = try Self.report(ledger)
        for pageSize in [1, 2, 3, 5] {
            let paged = try ledger.subscriptionMetrics(SubscriptionMetricsQuery(
                from: Payloads.date(0), to: Payloads.date(59 * Self.day), interval: .day, asOf: Payloads.date(60 * Self.day), pageSize: pageSize))
            #expect(paged == whole, "\(pageSize) transactions a page")
        }
        #expect(throws: LedgerError.invalidMetricsQuery("the page size is 0; it is at least 1")) {
            try SubscriptionMetricsQuery(from: Payloads.date(0), to: Payloads.date(Self.day), interval: .day, asOf: Payloads.date(Self.day), pageSize: 0)
        }
    }

    @Test("SQLite and PostgreSQL count the same figures", .enabled(if: LedgerBackend.available.count == 2))
    func backendsAgree() throws {
        let reports = try LedgerBackend.allCases.map { try Self.report(try Self.ledger(on: $0)) }
        #expect(reports[0] == reports[1])
    }
}
