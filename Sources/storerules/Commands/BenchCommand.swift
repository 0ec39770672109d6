import CommandLineOptions
import Foundation
import StoreBench

/// `storerules bench [--json] [--iterations N] [--sections LIST] [--service-folder DIR] [--service-requests N] [--postgres URL]`.
enum BenchCommand: Command {
    static let name = "bench"
    static let summary = "Measure decision cost through the engine against Swift and raw C"
    static var help: String { """
    Usage: storerules bench [--json] [--iterations N] [--sections LIST] [--service-folder DIR] [--service-requests N] [--postgres URL]

    Measures, in one run, the cost of one policy decision for the benchmark rule:
      input   subscribed?, group level (1 best … 3 lowest, 0 none), country, days since
              install, three product ids
      output  show = not subscribed or level > 1; the upgrade levels strictly better than
              the current one (all three when not subscribed)
    through the PolicyEngine (Lua through the bridge, limits armed), as a Swift closure, and
    as the same table-in/table-out call written directly against the Lua C API in C, bare and
    with the same kind of limits armed (a count hook every 1,000 instructions and a deadline); and
    decisions per second through the engine with 1 and 2 threads. Also signed transactions
    verified per second against OpenSSL's own ECDSA P-256 verify rate.

    The policy engine over the Backyard Birds folder (or --service-folder): one storefront plan
    for a subscriber against the same hooks called one by one; the median time to reload a
    generated \(PolicyBench.generatedLines)-line policy into an engine with \(PolicyBench.idleStates) idle states, \(PolicyBench.reloads) times, while 2
    threads decide (and how many of their decisions failed); and the bytes one pooled state
    holds after a plan, as its allocator counts them. Each figure with a goal prints it beside.

    The ledger: durable ingests per second into a SQLite ledger against raw inserts of the
    same rows (a table shaped like the ledger's transaction row, JWS included) at the same
    durability, one transaction each; customer-state reads per second on \(ReadsBesideWritesBench.readerThreads) threads while
    one thread ingests, against the same reads alone; and, with --postgres URL (or
    \(LedgerBench.postgresEnvironmentVariable)), ingests on PostgreSQL with \(PostgresLedgerBenchFigures.writerCounts.map(String.init).joined(separator: ", ")) concurrent writers
    against raw INSERTs of the same rows at the same synchronous_commit, in a database created
    for the run and dropped after it. When that section fails, the other figures are printed
    with the failure (postgres_failed in JSON) and the exit status is 1.

    Then it load-tests the PolicyService example (Examples/PolicyService), started from beside
    the storerules binary with \(ServiceLoadTest.workers) workers over a temporary ledger, the Backyard Birds example
    folder and a signing authority made in a temporary directory whose root the service
    trusts. \(ServiceLoadTest.customers) customers send a stream of mixed requests — signed consumable purchases
    (some delivered twice), subscription purchases and renewals, storefront plans,
    entitlements — as fast as the service answers, at most \(ServiceLoadTest.window) in flight, and the policy
    is edited and reloaded halfway. It reports requests per second, the p50 and p99 latency
    from writing a request to reading its reply, and the failed requests, and checks that each
    transaction was granted once and that the ledger's balances add up. Without a
    PolicyService binary beside storerules the section is skipped with a note.

    Experiments: storefront GETs under wrk (for --http-seconds) with the policy's experiments
    running against the same policy with its policy.experiments declaration taken out, on
    SQLite, customers in turn, in 5 rounds: customers new to the experiment (each one's first
    GET records an exposure) and the same customers returning, each against the mean of a run
    without before and after them (goal: ≥ \(ExperimentBenchSection.storefrontRatioGoal)×);
    and the experiment report over a ledger holding 100,000 exposed customers and 1,000,000
    transactions, filled by bulk SQL, on SQLite and with --postgres on PostgreSQL (goal: ≤ \(Int(ExperimentBenchSection.reportGoalSeconds)) s).

    Metrics: subscription metrics for a year by day over a ledger of 1,000,000 transactions (monthly
    subscriptions of 100,000 customers, renewed ten times), filled by bulk SQL, on SQLite and with
    --postgres on PostgreSQL (goal: ≤ \(Int(SubscriptionMetricsBench.goalSeconds)) s).

    Events: \(BenchScale.full.eventCustomers * OutgoingEventBench.renewals) notifications (\(BenchScale.full.eventCustomers) customers' monthly subscriptions bought and renewed
    \(OutgoingEventBench.renewals - 1) times) ingested into a ledger that records outgoing events against the same into one
    that does not, best of \(BenchRounds.count) alternating rounds, on SQLite and with --postgres on PostgreSQL (goal:
    ≥ \(OutgoingEventBench.ingestRatioGoal)×); then the last round's events delivered, signed, to a receiver on loopback with
    serve's delivery options (goal: ≥ \(Int(OutgoingEventBench.deliveryGoal)) events a second).

    Build with -c release for meaningful figures (this builds PolicyService too):
      swift build -c release && .build/release/storerules bench

    On a debug build the first line says so (on stderr with --json): its figures are not
    representative. --quick fills \(BenchScale.quick.filledCustomers) customers for the report and the metrics,
    ingests \(BenchScale.quick.eventCustomers) customers' notifications a round and the ledger's \(BenchScale.quick.ledgerIngests) transactions in \(BenchScale.quick.ledgerRounds) round: a
    check in seconds that every section runs, whose figures are not to compare either.

    Options:
    \(HelpText.options(syntax.options))
    """ }

    static let jsonFlag = CommandOption.json(
        help: "Print one JSON object (engine_ns_per_decision, swift_closure_ns_per_decision, c_api_ns_per_decision, "
            + "decisions_per_second_1_thread, decisions_per_second_2_threads, …, service_requests_per_second, service_p50_ms, "
            + "service_p99_ms, service_failed_requests; service_skipped when the load test did not run).")
    static let quickFlag = CommandOption.flag(
        "quick", help: "Small filled ledgers and rounds of ingests: checks that each section runs; its figures are not to compare.")
    static let iterations = TypedOption<Int>.positive(
        "iterations", help: "Decisions per measurement (default 100000); each figure is the best of 5 rounds taken in turn.")
    static let serviceFolder = TypedOption<URL>.value(
        "service-folder", "DIR", help: "The policy folder the service serves (default: the package's Examples/BackyardBirds). "
            + "It needs a .storekit catalog with consumables or subscriptions."
    ) { text throws(UsageError) in
        let folder = URL(fileURLWithPath: text)
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("policy.lua").path) else {
            throw UsageError("--service-folder \(folder.path) is not a policy folder: it has no policy.lua")
        }
        return folder
    }
    static let serviceRequests = TypedOption<Int>.positive(
        "service-requests", help: "Requests in the load test's stream (default 4000), plus the reload.")
    static let httpSeconds = TypedOption<Int>.count(
        "http-seconds", in: 0...600, help: "How long each HTTP run under wrk lasts (default 3; 0 skips the HTTP section).")
    static let sectionsOption = TypedOption<String>.text(
        "sections", "LIST", help: "Measure only these sections, comma-separated: "
            + BenchSection.allCases.map(\.rawValue).joined(separator: ", ") + " (default: all).")
    static let postgres = TypedOption<String>.text(
        "postgres", "URL", help: "A PostgreSQL server (postgresql://…) whose role may CREATE DATABASE, for the ledger's "
            + "PostgreSQL figures (default: $\(LedgerBench.postgresEnvironmentVariable); without either, skipped).")

    static let syntax = CommandSyntax(name, options: [
        jsonFlag, iterations.option, serviceFolder.option, serviceRequests.option, httpSeconds.option, sectionsOption.option, postgres.option,
        quickFlag,
    ])

    /// What a debug build says before its figures.
    static let debugBuildNote =
        "storerules bench: this is a debug build; figures are not representative — build with -c release"

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        try parsed.expectPositionals(atMost: 0)
        let iterations = try parsed.value(of: Self.iterations) ?? 100_000
        let serviceRequests = try parsed.value(of: Self.serviceRequests) ?? 4_000
        let httpSeconds = try parsed.value(of: Self.httpSeconds) ?? 3
        let serviceFolder = try parsed.value(of: Self.serviceFolder)
        #if DEBUG
        if parsed.printsJSON { Output.error(debugBuildNote) } else { Output.line(debugBuildNote) }
        #endif
        let postgresURL = try parsed.value(of: postgres)
            ?? ProcessInfo.processInfo.environment[LedgerBench.postgresEnvironmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        let sections = try BenchSection.parse(try parsed.value(of: sectionsOption))
        let scale = parsed.flag(quickFlag) ? BenchScale.quick : .full
        var report = BenchReport()
        if sections.contains(.decisions) { report.decisions = try DecisionBench.measure(iterations: iterations) }
        if sections.contains(.policy) { report.policy = try PolicyBench.measure(folder: serviceFolder) }
        if sections.contains(.signedData) { report.signedData = try SignedDataBench.measure() }
        if sections.contains(.appStoreAPI) { report.appStoreAPI = try await AppStoreAPIBench.measure(folder: serviceFolder) }
        if sections.contains(.ledger) { report.ledger = try LedgerBench.measure(postgresURL: postgresURL, scale: scale) }
        if sections.contains(.service) {
            report.service = try ServiceLoadTestSection.measure(folder: serviceFolder, requests: serviceRequests)
        }
        if sections.contains(.http) {
            report.http = HTTPBenchSection.measure(seconds: httpSeconds, folder: serviceFolder, postgresURL: postgresURL)
        }
        if sections.contains(.experiments) {
            report.experiments = ExperimentBenchSection.measure(seconds: httpSeconds, folder: serviceFolder, postgresURL: postgresURL,
                                                                scale: scale)
        }
        if sections.contains(.metrics) {
            report.metrics = SubscriptionMetricsBench.measure(postgresURL: postgresURL, scale: scale)
        }
        if sections.contains(.events) {
            report.events = await OutgoingEventBench.measure(postgresURL: postgresURL, scale: scale)
        }
        if parsed.printsJSON {
            Output.line(try Output.json(report))
        } else {
            Output.line(table(report))
        }
        return report.ledger?.postgresFailed == nil ? 0 : 1
    }
}
