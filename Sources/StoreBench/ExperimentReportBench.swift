import Foundation
import PostgresLedger
import ServiceCommandLine
import SQLiteLedger
import StoreCore
import StoreService

/// An experiment report at scale: a ledger holding 100,000 exposed customers and 1,000,000
/// transactions (``BenchScale/filledCustomers``, ten transactions each), filled by bulk SQL
/// (``ExperimentBulkRows``), and the time the report over it takes, on SQLite and, when a server
/// is given, on PostgreSQL.
struct ExperimentReportBench {
    static let experiment = "bench_paywall"
    static let phase = "0123456789ab"
    /// The goal: a report over this ledger in at most this many seconds.
    static let goalSeconds = 5.0

    /// Fills a new ledger on `backend` and times the report over it.
    static func measure(backend: String, location: LedgerLocation, customers: Int,
                        execute: (String) throws -> Void) throws -> ExperimentReportFigures {
        let transactions = customers * 10
        let ledger = try location.open()
        let start = Date().millisecondsSince1970 - 60 * 86_400_000
        let rows = ExperimentBulkRows(backend: backend, customers: customers, transactions: transactions, start: start,
                                      experiment: experiment, phase: phase)
        let filling = ContinuousClock.now
        for statement in rows.statements { try execute(statement) }
        try ledger.recordExposures([], phases: [ExperimentPhaseRecord(
            experiment: experiment, phase: phase, variants: [.init(name: "annual", weight: 1), .init(name: "control", weight: 1)],
            traffic: 100, firstRecordedDate: Date(millisecondsSince1970: start))])
        let filled = ContinuousClock.now - filling
        let asOf = Date()
        let aggregating = ContinuousClock.now
        let aggregates = try ledger.experimentAggregates(experiment: experiment, phase: phase, horizonDays: 14, asOf: asOf,
                                                         revenueCapPercentile: ExperimentReportOptions.defaultRevenueCapPercentile, rates: nil)
        let aggregated = ContinuousClock.now - aggregating
        let reporting = ContinuousClock.now
        let report = try ExperimentReporter(ledger: ledger, declarations: [:]).report(asOf: asOf, options: ExperimentReportOptions(experiment: experiment))
        let reported = ContinuousClock.now - reporting
        guard aggregates.variants.reduce(0, { $0 + $1.exposedCustomers }) == customers, !report.experiments.isEmpty else {
            throw BenchFailure("the \(backend) report did not count the \(customers) customers filled in")
        }
        return ExperimentReportFigures(ledger: backend, customers: customers, transactions: transactions, fillSeconds: filled.seconds,
                                       aggregatesSeconds: aggregated.seconds, reportSeconds: reported.seconds,
                                       horizons: ExperimentReportOptions(experiment: experiment).horizons.count)
    }

    /// The figures on a new SQLite ledger in `directory`.
    static func sqlite(in directory: URL, customers: Int) throws -> ExperimentReportFigures {
        let path = directory.appendingPathComponent("report.sqlite").path
        let location = LedgerLocation.sqlite(path: path)
        _ = try location.open()
        let database = try Database(path: path)
        return try measure(backend: "sqlite", location: location, customers: customers) { sql in try database.write { try $0.execute(sql) } }
    }

    /// The figures on a new database of the server at `serverURL`, dropped after.
    static func postgres(serverURL: String, customers: Int) throws -> ExperimentReportFigures {
        let database = try BenchPostgresDatabase(serverURL: serverURL)
        defer { try? database.drop() }
        let location = LedgerLocation.postgres(url: database.url)
        _ = try location.open()
        let connection = try PostgresConnection(url: database.url)
        return try measure(backend: "postgres", location: location, customers: customers) { sql in
            _ = try connection.execute(sql)
            _ = try connection.execute("ANALYZE")
        }
    }
}
