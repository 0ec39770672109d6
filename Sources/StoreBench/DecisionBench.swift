import CLuaBaseline
import Dispatch
import Foundation
import LuaBridge
import StorePolicy
import Synchronization

/// The decision section of `storerules bench`: the cost of one decision of the benchmark rule
/// through the `PolicyEngine`, as a Swift closure, and as the same call written in C against
/// the Lua C API, bare and with limits armed; and decisions per second through the engine with
/// 1 and 2 threads.
public enum DecisionBench {
    /// Measures every decision figure, each the best of ``BenchRounds/count`` rounds of
    /// `iterations` decisions, after checking that the engine and the C baseline decide as the
    /// Swift rule does.
    ///
    /// - Throws: ``BenchFailure`` when the policy does not load, a decision fails, or the
    ///   engine, the C baseline and the Swift rule disagree.
    public static func measure(iterations: Int) throws -> DecisionBenchFigures {
        let engine: PolicyEngine
        do {
            engine = try PolicyEngine(source: PolicySource(text: policy, chunkName: "bench.lua"))
        } catch {
            throw BenchFailure(error.description)
        }
        let inputs = inputs()
        let contexts = inputs.map(context(for:))
        let argument = [PolicyArgument.value(.table(LuaTable(array: productIDs.map(LuaValue.string))))]

        for (input, context) in zip(inputs, contexts) {
            let expected = swiftRule(input)
            let decided = try engine.call("upgrade_offer", context: context, arguments: argument, as: UpgradeOffer.self).value
            guard decided == expected else {
                throw BenchFailure("the engine and the Swift rule disagree for \(input): \(decided)")
            }
        }

        var engineNanoseconds = Double.infinity
        var swiftNanoseconds = Double.infinity
        var cNanoseconds = Double.infinity
        var cLimitedNanoseconds = Double.infinity
        for _ in 0..<BenchRounds.count {
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
        for _ in 0..<BenchRounds.count {
            oneThread = max(oneThread, try throughput(engine: engine, threads: 1, iterations: iterations))
            twoThreads = max(twoThreads, try throughput(engine: engine, threads: 2, iterations: iterations))
            cOneThread = max(cOneThread, try cThroughput(threads: 1, iterations: iterations, inputs: inputs))
            cTwoThreads = max(cTwoThreads, try cThroughput(threads: 2, iterations: iterations, inputs: inputs))
        }
        return DecisionBenchFigures(
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
            throw BenchFailure("the C baseline failed: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
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
            guard lua_baseline_decide(baseline, &copy, &result, limited ? 1 : 0) == 0 else { throw BenchFailure("the C baseline call failed") }
            let expected = swiftRule(input)
            let upgrades = withUnsafeBytes(of: result.upgrades) { Array($0.bindMemory(to: Int64.self).prefix(Int(result.upgrade_count))) }
            guard (result.show != 0) == expected.show, upgrades.map(Int.init) == expected.upgrades else {
                throw BenchFailure("the C baseline and the Swift rule disagree for \(input)")
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
        guard failures.count == 0 else { throw BenchFailure("the C baseline failed under load") }
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
        guard failures.count == 0 else { throw BenchFailure("\(failures.count) decisions failed under load") }
        return Double(iterations * threads) / elapsed.seconds
    }
}

/// Counts failures across threads.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var failures = 0
    func record() { lock.lock(); failures += 1; lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return failures }
}
