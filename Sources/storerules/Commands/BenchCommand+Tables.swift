import Foundation
import StoreBench

extension BenchCommand {
    /// The table of every section `report` holds, in the order they were measured.
    static func table(_ report: BenchReport) -> String {
        var sections: [String] = []
        if let decisions = report.decisions { sections.append(engineTable(decisions)) }
        if let policy = report.policy { sections.append(policyTable(policy)) }
        if let signedData = report.signedData { sections.append(signedDataTable(signedData)) }
        if let appStoreAPI = report.appStoreAPI { sections.append(appStoreAPITable(appStoreAPI)) }
        if let ledger = report.ledger { sections.append(ledgerTable(ledger)) }
        if let service = report.service { sections.append(serviceTable(service)) }
        if let http = report.http { sections.append(httpTable(http)) }
        if let experiments = report.experiments { sections.append(experimentsTable(experiments)) }
        if let metrics = report.metrics { sections.append(metricsTable(metrics)) }
        if let events = report.events { sections.append(eventsTable(events)) }
        let ratios = CrossSectionRatios(ledger: report.ledger, http: report.http)
        if !ratios.isEmpty { sections.append(crossSectionTable(ratios)) }
        return sections.joined(separator: "\n")
    }

    /// The ratios between sections of this run.
    static func crossSectionTable(_ ratios: CrossSectionRatios) -> String {
        var lines = ["Across sections of this run"]
        if let ratio = ratios.httpNotificationToLedgerIngest {
            lines.append("  HTTP notifications / library ingests (SQLite)  " + String(format: "%6.2f×", ratio)
                         + String(format: " (goal ≥ %.1f×)", CrossSectionRatios.httpNotificationToLedgerIngestGoal))
        }
        if let ratio = ratios.postgresStorefrontToSQLiteStorefront {
            lines.append("  storefront GETs, PostgreSQL / SQLite            " + String(format: "%6.2f×", ratio)
                         + String(format: " (goal ≥ %.1f×)", CrossSectionRatios.postgresStorefrontToSQLiteStorefrontGoal))
        }
        return lines.joined(separator: "\n")
    }

    /// The policy engine's lines: a storefront plan against its hooks, reloads, memory.
    static func policyTable(_ figures: PolicyBenchFigures) -> String {
        """
        The policy engine (Backyard Birds; best of \(BenchRounds.count) rounds)
          storefront plan, a subscriber    \(String(format: "%8.1f µs", figures.storefrontPlanMicroseconds)) \
        (\(figures.storefrontHookCalls) hook calls)
          the same hooks one by one        \(String(format: "%8.1f µs", figures.storefrontHooksMicroseconds))
          plan / hooks one by one          \(String(format: "%8.2f×", figures.storefrontPlanToHooksRatio)) \
        (goal ≤ \(String(format: "%.2f", PolicyBenchFigures.storefrontPlanToHooksGoal))×)
          reload, \(figures.reloadPolicyLines)-line policy         \(String(format: "%8.2f ms", figures.reloadMilliseconds)) \
        (median of \(figures.reloads), \(figures.reloadIdleStates) idle states; slowest \
        \(String(format: "%.2f", figures.reloadMaximumMilliseconds)) ms; goal ≤ \(String(format: "%.0f", PolicyBenchFigures.reloadMillisecondsGoal)) ms)
          decisions failed during reloads  \(String(format: "%8d", figures.failedDecisionsDuringReloads)) \
        (of \(figures.decisionsDuringReloads) on 2 threads; goal 0)
          one state after a plan           \(String(format: "%8d B", figures.stateMemoryBytes)) \
        (goal ≤ \(PolicyBenchFigures.stateMemoryGoal) B)
        """
    }

    /// The decision lines of the table.
    static func engineTable(_ figures: DecisionBenchFigures) -> String {
        func ns(_ value: Double) -> String { String(format: "%8.0f ns", value) }
        func rate(_ value: Double) -> String { String(format: "%10.0f /s", value) }
        return """
        Decision cost (best of \(BenchRounds.count) rounds of \(figures.iterations) decisions)
          engine (Lua through the bridge)  \(ns(figures.engineNanosecondsPerDecision))
          raw Lua C API call in C          \(ns(figures.cAPINanosecondsPerDecision))
          … with a count hook and deadline \(ns(figures.cAPIWithLimitsNanosecondsPerDecision))
          Swift closure                    \(ns(figures.swiftClosureNanosecondsPerDecision))
          engine / raw C API               \(String(format: "%8.2f×", figures.engineToCAPIRatio)) \
        (goal ≤ \(String(format: "%.2f", DecisionBenchFigures.engineToCAPIGoal))×)
          engine / C API with limits       \(String(format: "%8.2f×", figures.engineToCAPIWithLimitsRatio))
          engine / Swift closure           \(String(format: "%8.1f×", figures.engineToSwiftClosureRatio))
        Throughput through the engine
          1 thread                         \(rate(figures.decisionsPerSecond1Thread))
          2 threads                        \(rate(figures.decisionsPerSecond2Threads))
          scaling                          \(String(format: "%8.2f×", figures.twoThreadScaling)) \
        (goal ≥ \(String(format: "%.2f", DecisionBenchFigures.twoThreadScalingGoal))×)
          raw C API scaling, for reference \(String(format: "%8.2f×", figures.cAPITwoThreadScaling))
        """
    }

    /// The signed-data lines of the table.
    static func signedDataTable(_ figures: SignedDataBenchFigures) -> String {
        func rate(_ value: Double) -> String { String(format: "%10.0f /s", value) }
        return """
        Signed data (best of \(BenchRounds.count) rounds)
          verifications, chain cached      \(rate(figures.verificationsPerSecond)) (\(SignedDataBench.transactionCount) transactions)
          OpenSSL ECDSA P-256 verify       \(rate(figures.openSSLVerifiesPerSecond))
          verifier / OpenSSL               \(String(format: "%8.2f×", figures.verificationToOpenSSLRatio)) \
        (goal ≥ \(String(format: "%.2f", SignedDataBenchFigures.verificationToOpenSSLGoal))×)
        """
    }

    /// The App Store Server API lines of the table.
    static func appStoreAPITable(_ figures: AppStoreAPIBenchFigures) -> String {
        func rate(_ value: Double) -> String { String(format: "%10.0f /s", value) }
        return """
        App Store Server API client (best of \(BenchRounds.count) rounds)
          bearer tokens signed (ES256 JWT) \(rate(figures.jwtSignsPerSecond)) (\(AppStoreAPIBench.tokenCount) tokens)
          OpenSSL ECDSA P-256 sign         \(rate(figures.openSSLSignsPerSecond))
          tokens / OpenSSL                 \(String(format: "%8.2f×", figures.jwtToOpenSSLSignRatio))
          history pages over HTTP          \(rate(figures.historyPagesPerSecondOverHTTP)) (\(AppStoreAPIBench.transactionCount) transactions, pages of 20, verified)
          history pages in process         \(rate(figures.historyPagesPerSecondInProcess))
          over HTTP / in process           \(String(format: "%8.2f×", figures.historyHTTPToInProcessRatio))
        """
    }

    /// The ledger lines of the table.
    static func ledgerTable(_ figures: LedgerBenchFigures) -> String {
        func rate(_ value: Double) -> String { String(format: "%10.0f /s", value) }
        func ratio(_ value: Double) -> String { String(format: "%8.2f×", value) }
        let readerThreads = ReadsBesideWritesBench.readerThreads
        let table = """
        The ledger on SQLite (write-ahead log, synchronous=FULL; best of \(figures.sqliteRounds) round\(figures.sqliteRounds == 1 ? "" : "s") of ingests and inserts in turn, the ratio their median)
          durable ingests                  \(rate(figures.ingestsPerSecond)) (\(figures.sqliteIngestsPerRound) transactions)
          raw inserts of the same rows     \(rate(figures.sqliteInsertsPerSecond)) (one transaction each)
          ingest / raw insert              \(ratio(figures.ingestToSQLiteInsertRatio)) (goal ≥ \
        \(String(format: "%.1f", LedgerBenchFigures.ingestToSQLiteInsertGoal))×)
          customer-state reads, \(readerThreads) threads  \(rate(figures.readsPerSecondAlone))
          … beside one ingesting thread    \(rate(figures.readsPerSecondBesideWrites)) \
        (it ingests \(String(format: "%.0f", figures.ingestsPerSecondBesideReads)) /s)
          reads beside writes / alone      \(ratio(figures.readsBesideWritesRatio))
          storefront's read, one statement \(String(format: "%6.0f µs", figures.snapshotReadMicroseconds))
          … read by read in a transaction  \(String(format: "%6.0f µs", figures.readByReadMicroseconds))
        """
        if let failure = figures.postgresFailed {
            return table + "\nThe ledger on PostgreSQL: failed: \(failure)"
        }
        guard let postgres = figures.postgres else {
            return table + "\nThe ledger on PostgreSQL: skipped (\(figures.postgresSkipped ?? "not run"))"
        }
        let rows = PostgresLedgerBenchFigures.writerCounts.map { writers in
            let key = String(writers)
            return String(format: "  %-7d %14.0f /s %14.0f /s %12.2f×", writers, postgres.ingestsPerSecond[key] ?? 0,
                          postgres.insertsPerSecond[key] ?? 0, postgres.ingestToInsertRatio[key] ?? 0)
        }
        return table + """

        The ledger on PostgreSQL (best of \(BenchRounds.count) rounds of \(PostgresIngestBench.ingestCount) transactions; \
        synchronous_commit=\(postgres.synchronousCommit), fsync=\(postgres.fsync))
          writers   durable ingests     raw inserts  ingest / insert
        \(rows.joined(separator: "\n"))
          round trips per ingest             \(String(format: "%.1f", postgres.roundTripsPerIngest))
          round trips per storefront's read  \(String(format: "%.1f", postgres.roundTripsPerStorefront))
          storefront's read, one statement   \(String(format: "%.0f µs", postgres.snapshotReadMicroseconds))
          … read by read in a transaction    \(String(format: "%.0f µs", postgres.readByReadMicroseconds))
        """
    }

    /// The service lines of the table.
    static func serviceTable(_ section: ServiceLoadTestSection) -> String {
        guard let requests = section.requests, let rate = section.requestsPerSecond,
              let p50 = section.p50Milliseconds, let p99 = section.p99Milliseconds,
              let failed = section.failedRequests else {
            return "PolicyService under load: skipped (\(section.skipped ?? "not run"))"
        }
        var table = """
        PolicyService under load (\(ServiceLoadTest.workers) workers, \(ServiceLoadTest.customers) customers, \(requests) requests \
        with a reload halfway, \(ServiceLoadTest.window) in flight)
          requests per second              \(String(format: "%10.0f /s", rate))
          latency p50                      \(String(format: "%8.2f ms", p50))
          latency p99                      \(String(format: "%8.2f ms", p99))
          failed requests                  \(String(format: "%8d", failed))
        """
        if let failure = section.firstFailure { table += "\n  first failure: \(failure)" }
        return table
    }

    /// The HTTP lines of the table.
    static func httpTable(_ section: HTTPBenchSection) -> String {
        guard !section.runs.isEmpty else { return "storerules serve under wrk: skipped (\(section.skipped ?? "not run"))" }
        let header = """
        storerules serve under wrk (\(HTTPBench.connections) connections from a second process; goals: \
        ≥ \(Int(HTTPBenchFigures.storefrontGoal)) storefront GETs/s with p99 ≤ \(Int(HTTPBenchFigures.storefrontP99GoalMilliseconds)) ms, \
        the same for retention requests, ≥ \(Int(HTTPBenchFigures.notificationGoal)) notification ingests/s)
          ledger      instances  route                  requests/s   p50 ms   p99 ms   non-2xx
        """
        var rows: [String] = []
        for run in section.runs {
            let routes: [(String, WrkRun)] = [("storefront GET", run.storefront), ("retention POST", run.retention),
                                              ("notification POST", run.notifications)]
            for (index, (route, figures)) in routes.enumerated() {
                let lead = index == 0 ? run.ledger.padding(toLength: 10, withPad: " ", startingAt: 0) + String(format: " %9d", run.instances)
                    : String(repeating: " ", count: 20)
                rows.append("  " + lead + "  " + route.padding(toLength: 20, withPad: " ", startingAt: 0)
                    + String(format: " %11.0f %8.2f %8.2f %9d", figures.requestsPerSecond, figures.p50Milliseconds,
                             figures.p99Milliseconds, figures.non2xxResponses)
                    + (route == "notification POST" && run.notificationsRepeated ? " (notifications ran out and repeated)" : "")
                    + (route == "retention POST" ? String(format: " (%.2f× storefront)", run.retentionToStorefrontRatio) : ""))
            }
        }
        return ([header] + rows).joined(separator: "\n")
    }
}
