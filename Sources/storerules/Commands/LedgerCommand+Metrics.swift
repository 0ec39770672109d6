import CommandLineOptions
import Foundation
import StoreCore
import StorePolicy
import StoreService

extension LedgerCommand {
    /// `--from` of `metrics`.
    static let metricsFrom = TypedOption<String>.text(
        "from", "DATE", help: "The first day (UTC, YYYY-MM-DD), moved back to its interval's start (default: 30 days, 12 weeks "
            + "or 12 months before --to).")
    /// `--to` of `metrics`.
    static let metricsTo = TypedOption<String>.text("to", "DATE", help: "The last day, its interval included (default: the day of --as-of).")
    /// `--interval` of `metrics`.
    static let metricsInterval = TypedOption<String>.text("interval", "day|week|month", help: "Each interval's length, in UTC (default day).")
    /// `--environment` of `metrics`.
    static let metricsEnvironment = TypedOption<String>.text(
        "environment", "E", help: "Count only this environment's transactions: Production, Sandbox, Xcode or LocalTesting (default every one).")
    /// `--by` of `metrics`.
    static let metricsBy = TypedOption<String>.text(
        "by", "product|storefront", help: "Also count each product's or storefront's figures apart (each event in its transaction's).")
    /// `--customer` of `metrics`.
    static let metricsCustomer = TypedOption<String>.text(
        "customer", "ID", help: "Count only this customer's share: their transactions' figures, as `ledger customer` shows them.")
    /// `--currency` of `metrics`.
    static let metricsCurrency = TypedOption<String>.text(
        "currency", "C", help: "Report money in this currency, converted with --rates (default each currency apart).")
    /// `--rates` of `metrics`.
    static let metricsRates = TypedOption<String>.text(
        "rates", "FILE", help: #"The rates into --currency: a JSON object of currency codes and how many units of it one unit of each "#
            + #"is worth, --currency itself at 1 ({"USD": 1, "EUR": 1.08}). A currency without a rate is left out and listed."#)
    /// `--as-of` of `metrics`.
    static let metricsAsOf = TypedOption<Date>.reportTime(
        "TIME", help: "Count as of this time: a UTC date, an ISO 8601 time or milliseconds since 1970 (default now).")
    /// `--json` of `metrics`.
    static let metricsJSONFlag = CommandOption.json(help: "Print the figures as JSON, as GET /v1/admin/metrics/subscriptions answers them.")
    /// `--html` of `metrics`.
    static let metricsHTML = TypedOption<String>.text(
        "html", "OUT", help: "Write the operator page from the ledger alone: overview cards and charts per interval, what waits, "
            + "the experiments, and DIR's policy when given.")

    /// The options of `metrics`.
    static let metricsOptions: [CommandOption] = [
        ledgerOption, metricsFrom.option, metricsTo.option, metricsInterval.option, metricsEnvironment.option, metricsBy.option,
        metricsCustomer.option, metricsCurrency.option,
        metricsRates.option, metricsAsOf.option, metricsJSONFlag, metricsHTML.option,
    ]

    /// `ledger metrics [DIR] --ledger URL [--from DATE --to DATE] [--interval …] [--environment E]
    /// [--by product|storefront] [--customer ID] [--currency C --rates FILE] [--as-of TIME] [--json | --html OUT]`: the subscription
    /// figures per interval, with each product's period from DIR's catalog when given.
    static func metrics(_ parsed: ParsedArguments) throws -> Int32 {
        let folderPath = parsed.positionals.count > 1 ? parsed.positionals[1] : nil
        try parsed.expectPositionals(atMost: 2)
        let htmlPath = try parsed.value(of: metricsHTML)
        if htmlPath != nil, parsed.printsJSON { throw UsageError("give --json or --html OUT, not both") }
        var request = SubscriptionMetricsRequest(from: try parsed.value(of: metricsFrom), to: try parsed.value(of: metricsTo),
                                                 interval: try parsed.value(of: metricsInterval),
                                                 environment: try parsed.value(of: metricsEnvironment), by: try parsed.value(of: metricsBy),
                                                 customer: try parsed.value(of: metricsCustomer))
        request.rates = try metricsRates(parsed)
        // DIR is read once: its catalog for the periods, and, for the page, its policy.
        let folder = try folderPath.map(PolicyLoader.open)
        let catalog = folder?.1
        let engine = htmlPath == nil ? nil : try folder.map { try PolicyLoader.engine(for: $0.0, catalog: $0.1) }
        let asOf = try parsed.value(of: metricsAsOf) ?? Date()
        let query: SubscriptionMetricsQuery
        do {
            query = try request.query(asOf: asOf, catalog: catalog)
        } catch {
            throw UsageError(error.description)
        }
        let location = try location(parsed)
        let ledger: Ledger, metrics: SubscriptionMetrics
        do {
            ledger = try location.openForCommand(mustExist: true)
            metrics = try ledger.subscriptionMetrics(query)
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw CommandFailure("\(location.displayName): \(error)")
        }
        if let htmlPath {
            let page = OperatorPage.render(ledger: ledger, named: location.displayName, metrics: metrics, engine: engine) {
                Output.error("storerules: \($0)")
            }
            do {
                try page.write(to: URL(fileURLWithPath: htmlPath), atomically: true, encoding: .utf8)
            } catch {
                throw CommandFailure("cannot write \(htmlPath): \(error.localizedDescription)")
            }
            Output.line("wrote \(htmlPath)")
        } else if parsed.printsJSON {
            Output.line(try Output.json(metrics, pretty: true))
        } else {
            Output.line(SubscriptionMetricsText.render(metrics))
        }
        return 0
    }

    /// The rates `--currency` and `--rates` give, or nil without either.
    private static func metricsRates(_ parsed: ParsedArguments) throws -> ExperimentCurrencyRates? {
        let currency = try parsed.value(of: metricsCurrency), path = try parsed.value(of: metricsRates)
        guard let path else {
            if currency != nil { throw UsageError("--currency needs --rates FILE, the rates into it") }
            return nil
        }
        guard let currency else { throw UsageError("--rates needs --currency C, the currency its rates are into") }
        let rates = try RatesFile.read(path)
        guard rates.targetCurrency == currency else {
            throw UsageError("\(path) gives rates into \(rates.targetCurrency) (the currency at 1), not --currency \(currency)")
        }
        return rates
    }
}
