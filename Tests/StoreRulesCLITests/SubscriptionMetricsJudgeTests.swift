import Foundation
import ServiceCommandLine
import StoreCore
import TestPrerequisites
import Testing

/// The ledger's subscription metrics against an independent judge: `scripts/metrics-judge/judge.py`
/// recomputes every figure in Python from the ledger's tables, and a generated year of a few
/// hundred customers (``MetricsYear``) must read the same from both, interval by interval and
/// figure by figure, on SQLite and on PostgreSQL (the year copied there by `storerules ledger copy`).
@Suite(.serialized) struct SubscriptionMetricsJudgeTests {
    /// The year, played once on SQLite, and its ledger file.
    static let played: Result<(year: MetricsYear, ledger: String), any Error> = Result {
        let directory = try TestFolders.make("metrics-year")
        let path = directory.appending(path: "ledger.sqlite").path
        let year = try MetricsYear.play(into: try Ledger(path: path), directory: directory, customers: 200, seed: 2025)
        return (year, path)
    }

    /// The year copied to a fresh PostgreSQL database, once.
    static let copied: Result<String, any Error> = Result {
        let url = try LedgerWorkspace.freshPostgresLedger()
        let copy = try LedgerWorkspace.ledger("copy", "--from", try played.get().ledger, "--to", url)
        guard copy.status == 0 else { throw MetricsJudge.Failure(what: "ledger copy", output: copy.standardError) }
        return url
    }

    /// Where the ledger is read, and the same ledger opened in process.
    static func ledger(on backend: String) throws -> (url: String, ledger: Ledger) {
        guard backend == "postgres" else { return (try played.get().ledger, try Ledger(path: try played.get().ledger)) }
        let url = try copied.get()
        return (url, try LedgerLocation.postgres(url: url).open())
    }

    static let backends = ["sqlite"] + (TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil) ? ["postgres"] : [])

    /// One report asked of both: the judge's arguments and the same query in process.
    struct Report: Sendable, CustomStringConvertible {
        let interval: SubscriptionMetricsInterval
        let asOf: String
        var target: String? = nil
        var rates: [String: Double] = [:]
        var periods: [String: Double] = [:]
        var environment: String? = nil

        var description: String {
            "\(interval.rawValue) as of \(asOf)\(target.map { " in \($0)" } ?? "")\(environment.map { ", \($0) only" } ?? "")"
        }

        func query() throws -> SubscriptionMetricsQuery {
            try SubscriptionMetricsQuery(from: MetricsYear.start, to: MetricsYear.start.addingTimeInterval(364 * 86_400),
                                         interval: interval, asOf: try #require(MetricsJudge.date(asOf)), environment: environment,
                                         rates: target.map { ExperimentCurrencyRates(targetCurrency: $0, rates: rates) },
                                         periodMonths: periods)
        }

        /// The judge's arguments; the command's are the same but for `--periods`, which it reads
        /// from the catalog instead (`withPeriods: false`).
        func judgeArguments(in directory: URL, withPeriods: Bool = true) throws -> [String] {
            var arguments = ["--from", "2025-01-01", "--to", "2025-12-31", "--interval", interval.rawValue, "--as-of", asOf]
                + (environment.map { ["--environment", $0] } ?? [])
            if let target {
                let file = directory.appending(path: "rates-\(UUID().uuidString).json")
                // The rates file's format: the target currency at 1, the others in its units.
                try JSONSerialization.data(withJSONObject: rates.merging([target: 1]) { given, _ in given }).write(to: file)
                arguments += ["--currency", target, "--rates", file.path]
            }
            if withPeriods, !periods.isEmpty {
                let file = directory.appending(path: "periods-\(UUID().uuidString).json")
                try JSONSerialization.data(withJSONObject: periods).write(to: file)
                arguments += ["--periods", file.path]
            }
            return arguments
        }
    }

    static let reports: [Report] = [
        Report(interval: .day, asOf: "2026-01-01"),
        Report(interval: .week, asOf: "2026-01-01"),
        Report(interval: .month, asOf: "2026-01-01"),
        Report(interval: .month, asOf: "2025-07-15T12:30:00Z", target: "USD", rates: ["GBP": 1.27],
               periods: catalogPeriods),
        Report(interval: .week, asOf: "2026-01-01", target: "EUR", rates: ["USD": 0.91]),
        Report(interval: .month, asOf: "2025-10-20T07:15:00Z", environment: "Xcode"),
        Report(interval: .month, asOf: "2026-01-01", environment: "Production"),
    ]

    /// The periods of the Field Guide catalog's products, in months.
    static let catalogPeriods = ["guide.weekly": 12.0 / 52, "guide.monthly": 1, "guide.premium": 1, "guide.yearly": 12]

    @Test("The generated year holds every kind of event the figures count")
    func theYearHoldsEveryKindOfEvent() throws {
        let year = try Self.played.get().year
        FileHandle.standardError.write(Data("metrics year: \(year.counts.sorted { $0.key < $1.key }), customers \(year.customersByCurrency)\n".utf8))
        for kind in ["trials started", "cancellations", "upgrades", "downgrades", "crossgrades", "billing issues resolved",
                     "billing retry left to expire", "in a grace period at the year's end", "subscription transactions refunded", "seed packs bought", "seed packs refunded"] {
            #expect(year.counts[kind, default: 0] > 0, "\(kind)")
        }
        #expect(year.customersByCurrency.keys.sorted() == ["GBP", "USD"])
    }

    @Test("The ledger's figures are the judge's, interval by interval", arguments: backends, reports)
    func parity(backend: String, report: Report) throws {
        let (url, ledger) = try Self.ledger(on: backend)
        let directory = URL(fileURLWithPath: try Self.played.get().ledger).deletingLastPathComponent()
        let judged = try MetricsJudge.run(ledger: url, arguments: try report.judgeArguments(in: directory))
        let metrics = try ledger.subscriptionMetrics(try report.query())
        let swift = try MetricsJudge.object(metrics)
        let differences = MetricsJudge.differences(swift, judged.report)
        #expect(differences.isEmpty, "\(differences.count) figures differ on \(backend), \(report): \(differences.prefix(15).joined(separator: "\n"))")
        #expect(judged.problems.isEmpty, "the judge's own MRR movement: \(judged.problems)")
    }

    @Test("storerules ledger metrics --json, with the catalog's periods and rates, prints what the judge counts", arguments: backends)
    func command(backend: String) throws {
        let (url, _) = try Self.ledger(on: backend)
        let catalog = try String(contentsOf: MetricsYear.catalogURL, encoding: .utf8)
        let folder = try CommandRunner.policyFolder("return {}", files: ["Products.storekit": catalog])
        let report = Report(interval: .week, asOf: "2025-09-30T18:45:00Z", target: "GBP", rates: ["USD": 0.79], periods: Self.catalogPeriods)
        let printed = try CommandRunner.run(["ledger", "metrics", folder.path, "--ledger", url, "--json"]
                                            + (try report.judgeArguments(in: folder, withPeriods: false)))
        #expect(printed.status == 0, "\(printed.standardError)")
        let command = try #require(try JSONSerialization.jsonObject(with: Data(printed.standardOutput.utf8)) as? [String: Any])
        let judged = try MetricsJudge.run(ledger: url, arguments: try report.judgeArguments(in: folder))
        let differences = MetricsJudge.differences(command, judged.report)
        #expect(differences.isEmpty, "\(differences.count) figures differ on \(backend): \(differences.prefix(15).joined(separator: "\n"))")
    }

    @Test("storerules ledger metrics DIR --html OUT writes the operator page of the ledger, grouped by storefront")
    func operatorPage() throws {
        let (url, _) = try Self.ledger(on: "sqlite")
        let catalog = try String(contentsOf: MetricsYear.catalogURL, encoding: .utf8)
        let folder = try CommandRunner.policyFolder("return { grant = function() return {} end }", files: ["Products.storekit": catalog])
        let out = folder.appending(path: "operator.html")
        let written = try CommandRunner.run(["ledger", "metrics", folder.path, "--ledger", url, "--from", "2025-10-01", "--to", "2025-12-31",
                                             "--interval", "month", "--by", "storefront", "--as-of", "2026-01-01", "--html", out.path])
        #expect(written.status == 0 && written.standardOutput.contains("wrote \(out.path)"), "\(written.standardError)")
        let page = try String(contentsOf: out, encoding: .utf8)
        for section in ["metrics", "policy", "decisions", "waiting"] {
            #expect(page.contains("<section id=\"\(section)\">"), "section \(section)")
        }
        #expect(page.contains("<h2>By storefront</h2>") && page.contains("Content-Security-Policy") && !page.contains("<script"))
        let refused = try CommandRunner.run(["ledger", "metrics", "--ledger", url, "--by", "storefonts"])
        #expect(refused.status != 0 && refused.standardError.contains("did you mean 'storefront'?"), "\(refused.standardError)")
    }
}
