import CommandLineOptions
import Foundation
import ServiceCommandLine
import StoreCore
import StorePolicy
import StoreService

/// `storerules experiments report DIR --ledger URL [...]`: what each experiment of DIR's policy
/// earned, from the ledger's exposures and transactions.
enum ExperimentsCommand: Command {
    static let name = "experiments"
    static let summary = "Report what each experiment earned: the split, then each metric per variant with intervals"
    static var help: String { """
    Usage: storerules experiments report DIR --ledger URL [--experiment NAME] [--horizon DAYS] [--rates FILE]
                                         [--cap-percentile P] [--as-of DATE] [--json | --html OUT]

    Reports every experiment DIR's policy declares or the ledger has exposures of, per phase: each
    variant's exposed customers against its declared weight and the sample-ratio-mismatch check
    (chi-square, flagged below p = 0.001: then no metric of the phase is to be trusted); then, for
    horizons of 7, 14 and 30 days (and --horizon), over the customers whose horizon has matured
    since their first exposure: started a trial, paid, converted trial → paid, refunded, and net
    revenue per customer capped at a percentile with the uncapped figure beside it. Each variant
    is compared with control: the means, the absolute and relative difference with a 95 % interval
    and a p-value, by the sequential test (valid however often the report is read: read this one)
    and the fixed-horizon test (Welch's t, for one look at a horizon fixed in advance). Health
    notes say when a variant has too few customers for a result, when several policy versions
    exposed customers during a phase, and when a customer was found in two variants.

    Commands:
    \(HelpText.subcommands(subcommands))
    """ }

    static let ledger = ServiceOptionDeclarations.ledger.withHelp(
        "The ledger: a SQLite file's path, or a postgres:// or postgresql:// URL. Required.")
    static let experiment = TypedOption<String>.text("experiment", "NAME", help: "Report this experiment only.")
    static let horizon = TypedOption<Int>.count(
        "horizon", "DAYS", in: 1...ExperimentAggregatesQuery.maximumHorizonDays, help: "A horizon to report besides 7, 14 and 30 days.")
    static let rates = TypedOption<String>.text(
        "rates", "FILE", help: "Report revenue in one currency: a JSON object of currency codes and how many units of that currency "
            + #"one unit of each is worth, the currency itself at 1 ({"USD": 1, "EUR": 1.08}). A currency without a rate is left "#
            + "out and listed. Without it, revenue is reported per currency.")
    static let capPercentile = TypedOption<Double>.value(
        "cap-percentile", "P", help: "The percentile each customer's net revenue is capped at, above 0 and at most 100 (default 99)."
    ) { text throws(UsageError) in
        guard let value = Double(text), value > 0, value <= 100 else {
            throw UsageError("--cap-percentile must be a number above 0 and at most 100, not '\(text)'")
        }
        return value
    }
    static let asOf = TypedOption<Date>.reportTime(
        "DATE", help: "Report as of this time: a UTC date (2027-01-10), an ISO 8601 time, or milliseconds since 1970 (default now).")
    static let jsonFlag = CommandOption.json(help: "Print the report as JSON, as GET /v1/admin/experiments answers it.")
    static let html = TypedOption<String>.text(
        "html", "OUT", help: "Write one self-contained HTML page: the split check first, then each metric's difference and interval "
            + "drawn per horizon matured so far.")

    static let subcommands: [Subcommand] = [
        Subcommand("report", arguments: "DIR", summary: "The report of DIR's experiments from the ledger, as text, JSON or an HTML page.",
                   options: [ledger.option, experiment.option, horizon.option, rates.option, capPercentile.option, asOf.option,
                             jsonFlag, html.option] + PolicyLoader.limitOptions),
    ]

    static let syntax = CommandSyntax(name, options: [], subcommands: subcommands)

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let command = try parsed.positional(0, "an experiments command (see --help)")
        guard command == "report" else { throw UsageError("unknown experiments command '\(command)'") }
        let folder = try parsed.positional(1, "the policy folder DIR")
        try parsed.expectPositionals(atMost: 2)
        guard let location = try parsed.value(of: ledger) else { throw UsageError("missing --ledger URL") }
        let htmlPath = try parsed.value(of: html)
        if htmlPath != nil, parsed.printsJSON { throw UsageError("give --json or --html OUT, not both") }
        var options = ExperimentReportOptions(experiment: try parsed.value(of: experiment), horizonDays: try parsed.value(of: horizon))
        if let percentile = try parsed.value(of: capPercentile) { options.revenueCapPercentile = percentile }
        if let path = try parsed.value(of: rates) { options.rates = try RatesFile.read(path) }
        let reportTime = try parsed.value(of: asOf) ?? Date()
        let engine = try PolicyLoader.engine(forFolder: folder, limits: try PolicyLoader.limits(parsed))
        let reporter = ExperimentReporter(ledger: try location.openForCommand(mustExist: true), declarations: engine.experiments)
        let report: ExperimentReport
        do {
            report = try reporter.report(asOf: reportTime, options: options)
        } catch let error as ExperimentReportError {
            throw CommandFailure(error.description)
        } catch {
            throw CommandFailure("\(location.displayName): \(error)")
        }
        if let htmlPath {
            let page = ExperimentReportHTML.render(report, title: "\(URL(fileURLWithPath: folder).lastPathComponent) — experiments")
            do {
                try page.write(to: URL(fileURLWithPath: htmlPath), atomically: true, encoding: .utf8)
            } catch {
                throw CommandFailure("cannot write \(htmlPath): \(error.localizedDescription)")
            }
            Output.line("wrote \(htmlPath)")
        } else if parsed.printsJSON {
            Output.line(try Output.json(report, pretty: true))
        } else {
            Output.line(ExperimentReportText.render(report))
        }
        return 0
    }
}
