import Foundation
import PostgresLedger
import ServiceCommandLine
import SQLiteLedger
import StoreCore

/// Subscription metrics at scale: a ledger holding 1,000,000 transactions of 100,000 customers
/// over a year, monthly subscriptions renewed ten times (the first a free trial for two
/// customers in three, one in five in euros, one transaction in ninety-seven refunded), filled by
/// bulk SQL (``ExperimentBulkRows``), and the time a year by day takes, on SQLite and, when a
/// server is given, on PostgreSQL (``BenchScale/filledCustomers`` customers, ten transactions each).
public enum SubscriptionMetricsBench {
    /// The goal: a year by day in at most this many seconds.
    public static let goalSeconds = 3.0

    /// The figures on a new SQLite ledger in a temporary folder, and on a new database of the
    /// server at `postgresURL` when given, of `scale`'s size; a failure is recorded as the reason.
    public static func measure(postgresURL: String?, scale: BenchScale = .full) -> SubscriptionMetricsBenchSection {
        var section = SubscriptionMetricsBenchSection()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storerules-metrics-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent("metrics.sqlite").path
            _ = try LedgerLocation.sqlite(path: path).open()
            let database = try Database(path: path)
            section.figures.append(try measure(backend: "sqlite", location: .sqlite(path: path), customers: scale.filledCustomers) { sql in
                try database.write { try $0.execute(sql) }
            })
            if let postgresURL {
                let server = try BenchPostgresDatabase(serverURL: postgresURL)
                defer { try? server.drop() }
                _ = try LedgerLocation.postgres(url: server.url).open()
                let connection = try PostgresConnection(url: server.url)
                // Settled as autovacuum leaves a table by the time a year is counted: its
                // statistics and visibility map up to date, so the covering index is read
                // without the table.
                section.figures.append(try measure(backend: "postgres", location: .postgres(url: server.url), customers: scale.filledCustomers,
                                                   execute: { _ = try connection.execute($0) },
                                                   settle: { _ = try connection.execute("VACUUM ANALYZE") }))
            }
        } catch {
            section.failed = "\(error)"
        }
        return section
    }

    private static func measure(backend: String, location: LedgerLocation, customers: Int, execute: (String) throws -> Void,
                                settle: () throws -> Void = {}) throws -> SubscriptionMetricsFigures {
        let transactions = customers * 10
        let ledger = try location.open()
        let day: Int64 = 86_400_000
        let yearStart = SubscriptionMetricsInterval.day.start(of: Date()).millisecondsSince1970 - 365 * day
        let rows = ExperimentBulkRows(backend: backend, customers: customers, transactions: transactions, start: yearStart,
                                      experiment: "bench_metrics", phase: "0123456789ab", period: 30 * day,
                                      customerSpacing: 65 * day / Int64(customers))
        let filling = ContinuousClock.now
        for statement in rows.statements { try execute(statement) }
        try settle()
        let filled = ContinuousClock.now - filling
        let asOf = Date()
        let query = try SubscriptionMetricsQuery(from: Date(millisecondsSince1970: yearStart), to: asOf, interval: .day, asOf: asOf)
        let counting = ContinuousClock.now
        let metrics = try ledger.subscriptionMetrics(query)
        let counted = ContinuousClock.now - counting
        let renewals = metrics.intervals.reduce(0) { $0 + $1.renewals + $1.newPaidSubscriptions + $1.newTrials }
        guard renewals == transactions else {
            throw BenchFailure("the \(backend) metrics counted \(renewals) transactions of the \(transactions) filled in")
        }
        return SubscriptionMetricsFigures(ledger: backend, transactions: transactions, intervals: metrics.intervals.count,
                                          fillSeconds: filled.seconds, seconds: counted.seconds)
    }
}

/// How long subscription metrics take over a ledger filled at scale.
public struct SubscriptionMetricsFigures: Sendable, Encodable {
    /// `sqlite` or `postgres`.
    public var ledger: String
    /// Transactions in the ledger.
    public var transactions: Int
    /// The intervals reported: a year by day.
    public var intervals: Int
    /// Seconds the bulk inserts took.
    public var fillSeconds: Double
    /// Seconds `Ledger.subscriptionMetrics` took.
    public var seconds: Double

    private enum CodingKeys: String, CodingKey {
        case ledger, transactions, intervals, fillSeconds = "fill_seconds", seconds
    }
}

/// The metrics section of `storerules bench`: the figures per ledger, or why they are missing.
public struct SubscriptionMetricsBenchSection: Sendable, Encodable {
    /// One per ledger measured.
    public var figures: [SubscriptionMetricsFigures] = []
    /// Why a run failed.
    public var failed: String?

    private enum CodingKeys: String, CodingKey {
        case figures = "subscription_metrics", failed = "subscription_metrics_failed"
    }
}
