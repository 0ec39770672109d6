import Foundation
import SignedData
import StoreCore
import StoreTesting
import Testing
import TestPrerequisites

/// Subscriptions at the edges of the definitions, read by the judge and by the ledger at
/// several times: a trial upgraded before it ends, a renewal in another currency, a trial that
/// converts after a lapse, a renewal charged the day before the period it renews ends, a
/// refunded trial, and reports as of the very instant of an event or of a time before them all.
@Suite struct SubscriptionMetricsEdgeTests {
    static func ledger() throws -> (path: String, ledger: Ledger) {
        let directory = try TestFolders.make("metrics-edges")
        let path = directory.appending(path: "ledger.sqlite").path
        let ledger = try Ledger(path: path)
        func t(_ day: Int, _ hour: Int = 0, month: Int = 3) -> Date { SubscriptionMetricsHandCountedTests.time(day, hour, month: month) }
        let subscription = SubscriptionMetricsHandCountedTests.subscription
        let transactions: [(String, JWSTransactionDecodedPayload)] = [
            ("fay", subscription("f1", "f1", "guide.monthly", t(1), t(8), 0, "USD", true, true, nil)),
            ("fay", subscription("f2", "f1", "guide.premium", t(3, 6), t(3, 6, month: 4), 14990, "USD", false, false, nil)),
            ("gus", subscription("g1", "g1", "guide.monthly", t(10, month: 2), t(10), 9990, "USD", false, false, nil)),
            ("gus", subscription("g2", "g1", "guide.monthly", t(10), t(10, month: 4), 7990, "GBP", false, false, nil)),
            ("hal", subscription("h1", "h1", "guide.monthly", t(2), t(9), 0, "USD", true, false, nil)),
            ("hal", subscription("h2", "h1", "guide.monthly", t(20), t(20, month: 4), 9990, "USD", false, false, nil)),
            ("ivy", subscription("i1", "i1", "guide.weekly", t(5), t(12), 2990, "USD", false, false, nil)),
            ("ivy", subscription("i2", "i1", "guide.weekly", t(11), t(19), 2990, "USD", false, false, nil)),
            ("kim", subscription("k1", "k1", "guide.yearly", t(6), t(13), 0, "USD", true, false, t(7, 12))),
        ]
        for (customer, payload) in transactions {
            try ledger.ingest(transaction: payload, jwsRepresentation: try MetricsYear.authority.sign(payload), customerID: customer) { _ in [] }
        }
        return (path, ledger)
    }

    @Test("The judge and the ledger agree on the edges", arguments: ["2025-02-20", "2025-03-03T06:00:00Z", "2025-03-10", "2025-03-15", "2025-05-01"])
    func edges(asOf: String) throws {
        let (path, ledger) = try Self.ledger()
        for interval in [SubscriptionMetricsInterval.day, .week] {
            let judged = try MetricsJudge.run(ledger: path, arguments: ["--from", "2025-03-01", "--to", "2025-03-25",
                                                                        "--interval", interval.rawValue, "--as-of", asOf])
            let query = try SubscriptionMetricsQuery(from: SubscriptionMetricsHandCountedTests.time(1), to: SubscriptionMetricsHandCountedTests.time(25),
                                                     interval: interval, asOf: try #require(MetricsJudge.date(asOf)))
            let differences = MetricsJudge.differences(try MetricsJudge.object(try ledger.subscriptionMetrics(query)), judged.report)
            #expect(differences.isEmpty, "\(interval) as of \(asOf): \(differences.joined(separator: "\n"))")
            #expect(judged.problems.isEmpty, "\(interval) as of \(asOf): \(judged.problems)")
        }
    }
}
