import CommandLineOptions
import CLuaBaseline
import Dispatch
import Foundation
import StoreCore
import StoreBench
import LuaBridge
import StorePolicy
import Synchronization

/// `storerules bench [--json] [--iterations N] [--service-folder DIR] [--service-requests N] [--postgres URL]`.
enum BenchCommand: Command {
    static let name = "bench"
    static let summary = "Measure decision cost through the engine against Swift and raw C"
    static var help: String { """
    Usage: storerules bench [--json] [--iterations N] [--service-folder DIR] [--service-requests N] [--postgres URL]

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

    The ledger: durable ingests per second into a SQLite ledger against raw inserts of the
    same rows (a table shaped like the ledger's transaction row, JWS included) at the same
    durability, one transaction each; customer-state reads per second on \(readerThreads) threads while
    one thread ingests, against the same reads alone; and, with --postgres URL (or
    \(postgresEnvironmentVariable)), ingests on PostgreSQL with \(PostgresLedgerBenchFigures.writerCounts.map(String.init).joined(separator: ", ")) concurrent writers
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

    Build with -c release for meaningful figures (this builds PolicyService too):
      swift build -c release && .build/release/storerules bench

    On a debug build the first line says so (on stderr with --json): its figures are not
    representative.

    Options:
    \(HelpText.options(syntax.options))
    """ }

    /// The benchmark rule, as a policy hook.
    static let policy = """
    local GROUP = "BENCH"
    local policy = {}
    function policy.upgrade_offer(ctx, product_ids)
        local current = ctx.customer.subscriptions[GROUP]
        local subscribed = current ~= nil and current.state == "subscribed"
        local level = subscribed and current.group_level or 0
        local upgrades = {}
        for candidate = 1, #product_ids do
            if not subscribed or candidate < level then upgrades[#upgrades + 1] = candidate end
        end
        return { show = not subscribed or level > 1, upgrades = upgrades }
    end
    return policy
    """

    /// The rule's output, read straight from the hook's result table.
    struct UpgradeOffer: LuaReadable, Sendable, Equatable {
        var show: Bool
        var upgrades: [Int]

        init(show: Bool, upgrades: [Int]) {
            self.show = show
            self.upgrades = upgrades
        }

        init(from stack: LuaStack, at index: Int32) throws(LuaError) {
            let base = stack.top
            defer { stack.setTop(base) }
            guard stack.type(at: index) == .table, stack.pushField("show", of: index) == .boolean, let show = stack.bool(at: -1),
                  stack.pushField("upgrades", of: index) == .table else {
                throw LuaError(kind: .badResult, message: "expected { show = boolean, upgrades = { level, ... } }")
            }
            let list = stack.top
            var upgrades: [Int] = []
            for position in 1...max(1, stack.length(at: list)) where position <= stack.length(at: list) {
                stack.pushItem(position, of: list)
                guard let level = stack.integer(at: -1) else {
                    throw LuaError(kind: .badResult, message: "upgrades[\(position)]: expected an integer level")
                }
                upgrades.append(Int(level))
                stack.setTop(list)
            }
            self.show = show
            self.upgrades = upgrades
        }
    }

    /// One input of the rule.
    struct RuleInput: Sendable {
        var subscribed: Bool
        var groupLevel: Int
        var country: String
        var daysSinceInstall: Int
        var productIDs: [String]
    }

    /// The results, as printed.
    struct Figures: Encodable {
        var iterations: Int
        var engineNanosecondsPerDecision: Double
        var swiftClosureNanosecondsPerDecision: Double
        var cAPINanosecondsPerDecision: Double
        var cAPIWithLimitsNanosecondsPerDecision: Double
        var engineToCAPIRatio: Double
        var engineToCAPIWithLimitsRatio: Double
        var engineToSwiftClosureRatio: Double
        var decisionsPerSecond1Thread: Double
        var decisionsPerSecond2Threads: Double
        var twoThreadScaling: Double
        var cAPITwoThreadScaling: Double
        var serviceRequests: Int?
        var serviceRequestsPerSecond: Double?
        var serviceP50Milliseconds: Double?
        var serviceP99Milliseconds: Double?
        var serviceFailedRequests: Int?
        var serviceFirstFailure: String?
        var serviceSkipped: String?
        var verificationsPerSecond = 0.0, openSSLVerifiesPerSecond = 0.0, verificationToOpenSSLRatio = 0.0

        enum CodingKeys: String, CodingKey {
            case iterations
            case engineNanosecondsPerDecision = "engine_ns_per_decision"
            case swiftClosureNanosecondsPerDecision = "swift_closure_ns_per_decision"
            case cAPINanosecondsPerDecision = "c_api_ns_per_decision"
            case cAPIWithLimitsNanosecondsPerDecision = "c_api_with_limits_ns_per_decision"
            case engineToCAPIRatio = "engine_to_c_api_ratio"
            case engineToCAPIWithLimitsRatio = "engine_to_c_api_with_limits_ratio"
            case engineToSwiftClosureRatio = "engine_to_swift_closure_ratio"
            case decisionsPerSecond1Thread = "decisions_per_second_1_thread"
            case decisionsPerSecond2Threads = "decisions_per_second_2_threads"
            case twoThreadScaling = "two_thread_scaling"
            case cAPITwoThreadScaling = "c_api_two_thread_scaling"
            case serviceRequests = "service_requests"
            case serviceRequestsPerSecond = "service_requests_per_second"
            case serviceP50Milliseconds = "service_p50_ms"
            case serviceP99Milliseconds = "service_p99_ms"
            case serviceFailedRequests = "service_failed_requests"
            case serviceFirstFailure = "service_first_failure"
            case serviceSkipped = "service_skipped"
            case verificationsPerSecond = "verifications_per_second", openSSLVerifiesPerSecond = "openssl_verifies_per_second"
            case verificationToOpenSSLRatio = "verification_to_openssl_ratio"
        }
    }

    static let productIDs = ["bench.premium", "bench.family", "bench.individual"]

    static func inputs() -> [RuleInput] {
        (0..<64).map { index in
            let level = index % 4
            return RuleInput(subscribed: level != 0, groupLevel: level, country: ["USA", "ESP", "DEU", "JPN"][index % 4],
                             daysSinceInstall: index * 3, productIDs: productIDs)
        }
    }

    static func context(for input: RuleInput) -> PolicyContext {
        var subscriptions: [String: SubscriptionSnapshot] = [:]
        if input.subscribed {
            subscriptions["BENCH"] = SubscriptionSnapshot(productID: input.productIDs[input.groupLevel - 1],
                                                          groupLevel: input.groupLevel, state: .subscribed,
                                                          expirationDate: Date(timeIntervalSince1970: 1_767_312_000))
        }
        return PolicyContext(
            now: Date(timeIntervalSince1970: 1_767_225_600), storefront: input.country,
            customer: CustomerContext(id: "bench-customer", seed: 42, statusKnown: true,
                                      entitlements: input.subscribed ? [input.productIDs[input.groupLevel - 1]] : [],
                                      subscriptions: subscriptions,
                                      attributes: ["days_since_install": .integer(Int64(input.daysSinceInstall))]))
    }

    /// The rule in Swift.
    static let swiftRule: @Sendable (RuleInput) -> UpgradeOffer = { input in
        let level = input.subscribed ? input.groupLevel : 0
        var upgrades: [Int] = []
        for candidate in 1...input.productIDs.count where !input.subscribed || candidate < level {
            upgrades.append(candidate)
        }
        return UpgradeOffer(show: !input.subscribed || level > 1, upgrades: upgrades)
    }

    static let syntax = CommandSyntax(name, options: [
        .flag("json", help: "Print one JSON object (engine_ns_per_decision, swift_closure_ns_per_decision, "
              + "c_api_ns_per_decision, decisions_per_second_1_thread, decisions_per_second_2_threads, …, "
              + "service_requests_per_second, service_p50_ms, service_p99_ms, service_failed_requests; "
              + "service_skipped when the load test did not run)."),
        .value("iterations", "N", help: "Decisions per measurement (default 100000); each figure is the best of "
               + "5 rounds taken in turn."),
        .value("service-folder", "DIR", help: "The policy folder the service serves (default: the package's "
               + "Examples/BackyardBirds). It needs a .storekit catalog with consumables or subscriptions."),
        .value("service-requests", "N", help: "Requests in the load test's stream (default 4000), plus the reload."),
        .value("http-seconds", "N", help: "How long each HTTP run under wrk lasts (default 3; 0 skips the HTTP section)."),
        .value("postgres", "URL", help: "A PostgreSQL server (postgresql://…) whose role may CREATE DATABASE, for the "
               + "ledger's PostgreSQL figures (default: $\(postgresEnvironmentVariable); without either, skipped)."),
    ])

    /// What a debug build says before its figures.
    static let debugBuildNote =
        "storerules bench: this is a debug build; figures are not representative — build with -c release"

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        try parsed.expectPositionals(atMost: 0)
        func positive(_ name: String) throws(UsageError) -> Int? {
            try parsed.value(name).map { text throws(UsageError) -> Int in
                guard let count = Int(text), count > 0 else { throw UsageError("--\(name) must be a positive integer") }
                return count
            }
        }
        let iterations = try positive("iterations") ?? 100_000
        let serviceRequests = try positive("service-requests") ?? 4_000
        let httpSeconds = try parsed.value("http-seconds").map { text throws(UsageError) -> Int in
            guard let seconds = Int(text), (0...600).contains(seconds) else {
                throw UsageError("--http-seconds must be a whole number from 0 to 600, not '\(text)'")
            }
            return seconds
        } ?? 3
        let serviceFolder = parsed.value("service-folder").map { URL(fileURLWithPath: $0) }
        if let serviceFolder, !FileManager.default.fileExists(atPath: serviceFolder.appendingPathComponent("policy.lua").path) {
            throw UsageError("--service-folder \(serviceFolder.path) is not a policy folder: it has no policy.lua")
        }
        #if DEBUG
        if parsed.flag("json") { Output.error(debugBuildNote) } else { Output.line(debugBuildNote) }
        #endif
        let postgresURL = parsed.value("postgres")
            ?? ProcessInfo.processInfo.environment[postgresEnvironmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        var figures = try measure(iterations: iterations)
        try measureSignedData(into: &figures)
        let ledger = try measureLedger(postgresURL: postgresURL)
        try loadTestService(folder: serviceFolder, requests: serviceRequests, into: &figures)
        let http = measureHTTP(seconds: httpSeconds, folder: serviceFolder, postgresURL: postgresURL)
        if parsed.flag("json") {
            Output.line(try Output.json(BenchReport(figures: figures, ledger: ledger, http: http)))
        } else {
            Output.line(engineTable(figures) + "\n" + ledgerTable(ledger) + "\n" + serviceTable(figures) + "\n" + httpTable(http))
        }
        return ledger.postgresFailed == nil ? 0 : 1
    }

    /// Runs the service load test and adds its figures, or says why it was skipped.
    static func loadTestService(folder: URL?, requests: Int, into figures: inout Figures) throws {
        guard let executable = ServiceLoadTest.executableBesideThisOne() else {
            figures.serviceSkipped = "no PolicyService binary beside storerules; build it with swift build --product PolicyService (-c release for these figures)"
            return
        }
        let folder = folder ?? ServiceLoadTest.exampleFolder
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("policy.lua").path) else {
            figures.serviceSkipped = "the Backyard Birds example is not at \(folder.path); pass --service-folder DIR"
            return
        }
        let service = try ServiceLoadTest(executable: executable, folder: folder, requestCount: requests).run()
        figures.serviceRequests = service.requests
        figures.serviceRequestsPerSecond = service.requestsPerSecond
        figures.serviceP50Milliseconds = service.p50Milliseconds
        figures.serviceP99Milliseconds = service.p99Milliseconds
        figures.serviceFailedRequests = service.failedRequests
        figures.serviceFirstFailure = service.firstFailure
    }

    /// Each figure is the best of this many rounds, taken in turn, so a busy moment on the
    /// machine skews no single figure.
    static let rounds = 5

    static func measure(iterations: Int) throws -> Figures {
        let engine: PolicyEngine
        do {
            engine = try PolicyEngine(source: PolicySource(text: policy, chunkName: "bench.lua"))
        } catch {
            throw CommandFailure(error.description)
        }
        let inputs = inputs()
        let contexts = inputs.map(context(for:))
        let argument = [PolicyArgument.value(.table(LuaTable(array: productIDs.map(LuaValue.string))))]

        for (input, context) in zip(inputs, contexts) {
            let expected = swiftRule(input)
            let decided = try engine.call("upgrade_offer", context: context, arguments: argument, as: UpgradeOffer.self).value
            guard decided == expected else {
                throw CommandFailure("the engine and the Swift rule disagree for \(input): \(decided)")
            }
        }

        var engineNanoseconds = Double.infinity
        var swiftNanoseconds = Double.infinity
        var cNanoseconds = Double.infinity
        var cLimitedNanoseconds = Double.infinity
        for _ in 0..<rounds {
            engineNanoseconds = min(engineNanoseconds, try time(iterations) { index in
                _ = try engine.call("upgrade_offer", context: contexts[index & 63], arguments: argument, as: UpgradeOffer.self)
            })
            swiftNanoseconds = min(swiftNanoseconds, try time(iterations) { index in
                keep(swiftRule(inputs[index & 63]))
            })
            cNanoseconds = min(cNanoseconds, try measureCAPI(iterations: iterations, inputs: inputs, limited: false))
            cLimitedNanoseconds = min(cLimitedNanoseconds, try measureCAPI(iterations: iterations, inputs: inputs, limited: true))
        }

        var oneThread = 0.0
        var twoThreads = 0.0
        var cOneThread = 0.0
        var cTwoThreads = 0.0
        for _ in 0..<rounds {
            oneThread = max(oneThread, try throughput(engine: engine, threads: 1, iterations: iterations))
            twoThreads = max(twoThreads, try throughput(engine: engine, threads: 2, iterations: iterations))
            cOneThread = max(cOneThread, try cThroughput(threads: 1, iterations: iterations, inputs: inputs))
            cTwoThreads = max(cTwoThreads, try cThroughput(threads: 2, iterations: iterations, inputs: inputs))
        }
        return Figures(
            iterations: iterations,
            engineNanosecondsPerDecision: engineNanoseconds,
            swiftClosureNanosecondsPerDecision: swiftNanoseconds,
            cAPINanosecondsPerDecision: cNanoseconds,
            cAPIWithLimitsNanosecondsPerDecision: cLimitedNanoseconds,
            engineToCAPIRatio: engineNanoseconds / cNanoseconds,
            engineToCAPIWithLimitsRatio: engineNanoseconds / cLimitedNanoseconds,
            engineToSwiftClosureRatio: engineNanoseconds / swiftNanoseconds,
            decisionsPerSecond1Thread: oneThread,
            decisionsPerSecond2Threads: twoThreads,
            twoThreadScaling: twoThreads / oneThread,
            cAPITwoThreadScaling: cTwoThreads / cOneThread)
    }

    /// Nanoseconds per call of `body`, after a warm-up.
    static func time(_ iterations: Int, _ body: (Int) throws -> Void) throws -> Double {
        for index in 0..<min(iterations, 10_000) { try body(index) }
        let clock = ContinuousClock()
        let started = clock.now
        for index in 0..<iterations { try body(index) }
        let elapsed = clock.now - started
        return Double(elapsed.components.seconds) * 1e9 / Double(iterations)
            + Double(elapsed.components.attoseconds) / 1e9 / Double(iterations)
    }

    /// Nanoseconds per decision of the C baseline; `limited` arms a count hook and a deadline
    /// around each call, as the engine does.
    static func measureCAPI(iterations: Int, inputs: [RuleInput], limited: Bool) throws -> Double {
        var message = [CChar](repeating: 0, count: 512)
        guard let baseline = lua_baseline_open(policy, "upgrade_offer", &message, Int32(message.count)) else {
            throw CommandFailure("the C baseline failed: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        defer { lua_baseline_close(baseline) }
        let strings = (productIDs + ["USA", "ESP", "DEU", "JPN", "BENCH", "bench-customer"]).map { strdup($0)! }
        defer { strings.forEach { free($0) } }
        let cInputs = inputs.map { input in
            lua_baseline_input(
                subscribed: input.subscribed ? 1 : 0, group_level: Int32(input.groupLevel),
                country: UnsafePointer(strings[3 + ["USA", "ESP", "DEU", "JPN"].firstIndex(of: input.country)!]),
                days_since_install: Int64(input.daysSinceInstall),
                product_ids: (UnsafePointer(strings[0]), UnsafePointer(strings[1]), UnsafePointer(strings[2])),
                group_id: UnsafePointer(strings[7]), customer_id: UnsafePointer(strings[8]), now: 1_767_225_600)
        }
        var result = lua_baseline_result()
        for (input, cInput) in zip(inputs, cInputs) {
            var copy = cInput
            guard lua_baseline_decide(baseline, &copy, &result, limited ? 1 : 0) == 0 else { throw CommandFailure("the C baseline call failed") }
            let expected = swiftRule(input)
            let upgrades = withUnsafeBytes(of: result.upgrades) { Array($0.bindMemory(to: Int64.self).prefix(Int(result.upgrade_count))) }
            guard (result.show != 0) == expected.show, upgrades.map(Int.init) == expected.upgrades else {
                throw CommandFailure("the C baseline and the Swift rule disagree for \(input)")
            }
        }
        return try cInputs.withUnsafeBufferPointer { buffer in
            try time(iterations) { index in
                _ = lua_baseline_decide(baseline, buffer.baseAddress! + (index & 63), &result, limited ? 1 : 0)
            }
        }
    }

    /// Decisions per second of the C baseline with `threads` threads, each with a Lua state of
    /// its own: how far this machine lets two threads scale at all.
    static func cThroughput(threads: Int, iterations: Int, inputs: [RuleInput]) throws -> Double {
        let rates = Mutex<[Double]>([])
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            do {
                let nanoseconds = try measureCAPI(iterations: iterations, inputs: inputs, limited: false)
                rates.withLock { $0.append(1e9 / nanoseconds) }
            } catch {
                failures.record()
            }
        }
        guard failures.count == 0 else { throw CommandFailure("the C baseline failed under load") }
        return rates.withLock { $0.reduce(0, +) }
    }

    /// Decisions per second through the engine with `threads` threads deciding at once, each
    /// on requests of its own, as a service's workers would.
    static func throughput(engine: PolicyEngine, threads: Int, iterations: Int) throws -> Double {
        let failures = Failures()
        let requests = (0..<threads).map { _ in
            (inputs().map(context(for:)), [PolicyArgument.value(.table(LuaTable(array: productIDs.map(LuaValue.string))))])
        }
        let clock = ContinuousClock()
        let started = clock.now
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let (contexts, argument) = requests[thread]
            for index in 0..<iterations {
                do {
                    _ = try engine.call("upgrade_offer", context: contexts[index & 63], arguments: argument, as: UpgradeOffer.self)
                } catch {
                    failures.record()
                }
            }
        }
        let elapsed = clock.now - started
        guard failures.count == 0 else { throw CommandFailure("\(failures.count) decisions failed under load") }
        return Double(iterations * threads) / elapsed.seconds
    }

    static func engineTable(_ figures: Figures) -> String {
        func ns(_ value: Double) -> String { String(format: "%8.0f ns", value) }
        func rate(_ value: Double) -> String { String(format: "%10.0f /s", value) }
        return """
        Decision cost (best of \(rounds) rounds of \(figures.iterations) decisions)
          engine (Lua through the bridge)  \(ns(figures.engineNanosecondsPerDecision))
          raw Lua C API call in C          \(ns(figures.cAPINanosecondsPerDecision))
          … with a count hook and deadline \(ns(figures.cAPIWithLimitsNanosecondsPerDecision))
          Swift closure                    \(ns(figures.swiftClosureNanosecondsPerDecision))
          engine / raw C API               \(String(format: "%8.2f×", figures.engineToCAPIRatio))
          engine / C API with limits       \(String(format: "%8.2f×", figures.engineToCAPIWithLimitsRatio))
          engine / Swift closure           \(String(format: "%8.1f×", figures.engineToSwiftClosureRatio))
        Throughput through the engine
          1 thread                         \(rate(figures.decisionsPerSecond1Thread))
          2 threads                        \(rate(figures.decisionsPerSecond2Threads))
          scaling                          \(String(format: "%8.2f×", figures.twoThreadScaling))
          raw C API scaling, for reference \(String(format: "%8.2f×", figures.cAPITwoThreadScaling))
        \(signedDataTable(figures))
        """
    }

    static func serviceTable(_ figures: Figures) -> String {
        guard let requests = figures.serviceRequests, let rate = figures.serviceRequestsPerSecond,
              let p50 = figures.serviceP50Milliseconds, let p99 = figures.serviceP99Milliseconds,
              let failed = figures.serviceFailedRequests else {
            return "PolicyService under load: skipped (\(figures.serviceSkipped ?? "not run"))"
        }
        var table = """
        PolicyService under load (\(ServiceLoadTest.workers) workers, \(ServiceLoadTest.customers) customers, \(requests) requests \
        with a reload halfway, \(ServiceLoadTest.window) in flight)
          requests per second              \(String(format: "%10.0f /s", rate))
          latency p50                      \(String(format: "%8.2f ms", p50))
          latency p99                      \(String(format: "%8.2f ms", p99))
          failed requests                  \(String(format: "%8d", failed))
        """
        if let failure = figures.serviceFirstFailure { table += "\n  first failure: \(failure)" }
        return table
    }
}

/// Keeps a result alive so the optimizer cannot drop the work that made it.
@inline(never)
func keep<Value>(_ value: Value) {
    withExtendedLifetime(value) {}
}

/// Counts failures across threads.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var failures = 0
    func record() { lock.lock(); failures += 1; lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return failures }
}
