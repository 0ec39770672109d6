import Foundation
import LuaBridge
import StoreCore
import Synchronization

/// Runs a Lua policy's hooks for a host, from any number of threads.
///
/// The engine keeps a pool of Lua states, each with the policy compiled and its hooks in
/// the registry; a state is never used by two threads at once. ``reload(_:)`` compiles and
/// validates the new policy first and then swaps it in atomically: decisions already
/// running finish on the old policy, the next ones use the new one, and a policy that fails
/// to compile or validate never replaces a working one.
///
/// Display hooks fall back to their documented defaults when they fail, and say why in the
/// ``Decision``; ``grant(_:transaction:product:traced:)`` throws instead, because a grant
/// must never be guessed.
public final class PolicyEngine: Sendable {
    /// The limits each hook call runs under.
    public let limits: LuaLimits
    private let print: LuaState.PrintHandler
    private let lineCounts: LuaLineCounts?
    private let maximumIdleStates: Int
    private let current: Mutex<Generation>
    private let generationNumber = Atomic<Int>(0)
    private let token = EngineToken()
    /// Every phase of every experiment the engine has served, by "name/phase": a decision made
    /// just before a reload records its phase as the version that decided declared it.
    private let servedPhases = Mutex<[String: ExperimentDeclaration]>([:])

    /// Creates an engine for `source`.
    ///
    /// - Parameters:
    ///   - source: the policy.
    ///   - catalog: the catalog hooks see; empty by default.
    ///   - limits: instruction budget, deadline and memory cap per state.
    ///   - maximumIdleStates: how many compiled states to keep for reuse.
    ///   - print: receives lines the policy prints.
    /// - Throws: ``PolicyError`` when the policy does not compile or validate.
    public convenience init(source: PolicySource, catalog: PolicyCatalog = .empty, limits: LuaLimits = .default,
                maximumIdleStates: Int = max(2, ProcessInfo.processInfo.activeProcessorCount * 2),
                print: @escaping LuaState.PrintHandler = { _ in }) throws(PolicyError) {
        try self.init(source: source, catalog: catalog, limits: limits, maximumIdleStates: maximumIdleStates, print: print, lineCounts: nil)
    }

    /// Creates an engine whose states count the lines of the policy that run into `lineCounts`
    /// (for test coverage; its states must then run one at a time).
    package init(source: PolicySource, catalog: PolicyCatalog, limits: LuaLimits, maximumIdleStates: Int = 1,
                 print: @escaping LuaState.PrintHandler = { _ in }, lineCounts: LuaLineCounts?) throws(PolicyError) {
        self.limits = limits
        self.print = print
        self.lineCounts = lineCounts
        self.maximumIdleStates = maximumIdleStates
        let generation = try Generation(source: source, catalog: catalog, limits: limits, print: print, lineCounts: lineCounts)
        current = Mutex(generation)
        remember(generation.experiments)
    }

    /// The declaration of `experiment` whose phase is `phase`, in any version the engine served.
    func servedDeclaration(of experiment: String, phase: String) -> ExperimentDeclaration? {
        servedPhases.withLock { $0["\(experiment)/\(phase)"] }
    }

    private func remember(_ experiments: [String: ExperimentDeclaration]) {
        servedPhases.withLock { served in
            for declaration in experiments.values { served["\(declaration.name)/\(declaration.phase)"] = declaration }
        }
    }

    /// The version of the policy serving now: the digest of its script and its catalog
    /// together (``PolicyVersion``).
    public var version: String { current.withLock { $0.version } }

    /// The catalog hooks see as `ctx.catalog`, in the policy serving now.
    public var catalog: PolicyCatalog { current.withLock { $0.catalog } }

    /// The catalog's part in every storefront plan, in the policy serving now.
    var storefrontLayout: StorefrontLayout { current.withLock { $0.storefrontLayout } }

    /// The policy serving now.
    public var source: PolicySource { current.withLock { $0.source } }

    /// The experiments the serving policy declares in `policy.experiments`, by name.
    public var experiments: [String: ExperimentDeclaration] { current.withLock { $0.experiments } }

    /// What is suspicious in the serving policy's table (see ``PolicyLint``): one line each.
    public var warnings: [String] { current.withLock { $0.lint.warnings } }

    /// When the policy serving now was loaded: the engine's creation, or its last reload.
    public var loadedAt: Date { current.withLock { $0.loadedAt } }

    /// How many reloads have swapped a new policy in since the engine was created.
    public var reloadCount: Int { generationNumber.load(ordering: .acquiring) }

    /// The hooks the serving policy defines, known and custom, sorted.
    public var definedHooks: [String] {
        (try? withInstance { $0.definedHooks }) ?? []
    }

    /// Compiles and validates `source` over `catalog` (the serving catalog when nil), then makes
    /// both the serving policy at once: no decision sees the new script with the old catalog,
    /// or the reverse.
    ///
    /// - Returns: the new version.
    /// - Throws: ``PolicyError`` when the new policy fails; the old one keeps serving.
    @discardableResult
    public func reload(_ source: PolicySource, catalog: PolicyCatalog? = nil) throws(PolicyError) -> String {
        let generation = try Generation(source: source, catalog: catalog ?? self.catalog, limits: limits, print: print,
                                        lineCounts: lineCounts)
        remember(generation.experiments)
        current.withLock { serving in
            generation.number = serving.number + 1
            serving = generation
            generationNumber.store(generation.number, ordering: .releasing)
        }
        return generation.version
    }

    /// Compiles states of the serving policy until `count` of them (at most the engine's
    /// `maximumIdleStates`) are idle, so that threads deciding for the first time find one
    /// ready instead of compiling it.
    ///
    /// - Throws: ``PolicyError`` when a state cannot be made (its memory cap, say).
    public func prepareIdleStates(_ count: Int) throws(PolicyError) {
        let generation = current.withLock { $0 }
        try generation.prepare(min(count, maximumIdleStates))
    }

    /// The bytes the Lua state this thread decides with holds, as the state's allocator
    /// counts them: its policy, the catalog, the sandbox and whatever the last calls left
    /// for the collector. Nil when the thread has no state of the serving policy yet.
    public func stateMemoryInUse() -> Int? {
        let cache = ThreadInstanceCache.current
        guard let instance = cache.borrow(engine: token.identifier, generation: generationNumber.load(ordering: .acquiring)) else {
            return nil
        }
        defer { cache.giveBack(engine: token.identifier) }
        return instance.state.memoryInUse
    }

    // MARK: Running hooks

    /// Borrows an instance of the serving policy for the length of `body`.
    ///
    /// Each thread keeps the instance it used last (see ``ThreadInstanceCache``), so a thread
    /// deciding again with the same policy version takes no lock; a nested call on the same
    /// thread, or a thread's first call after a reload, goes through the generation's pool.
    func withInstance<Result>(_ body: (PolicyInstance) throws(PolicyError) -> Result) throws(PolicyError) -> Result {
        let cache = ThreadInstanceCache.current
        if let held = cache.held, held.engine == token.identifier { return try body(held.instance) }
        let number = generationNumber.load(ordering: .acquiring)
        if let instance = cache.borrow(engine: token.identifier, generation: number) {
            defer { cache.giveBack(engine: token.identifier) }
            return try body(instance)
        }
        let generation = current.withLock { $0 }
        let instance = try generation.take()
        if cache.keep(instance, engine: token.identifier, owner: token, generation: generation.number) {
            defer { cache.giveBack(engine: token.identifier) }
            return try body(instance)
        }
        defer { generation.give(back: instance, keepingAtMost: maximumIdleStates) }
        return try body(instance)
    }

    /// Runs `body` with one instance of the serving policy whose hooks all receive the same
    /// `ctx`, made from `context` once: a storefront plan's hooks share its fields as they
    /// are read, so each is pushed at most once per plan. `ctx` is read-only, so no hook
    /// can change what a later one sees. Hooks called from `body` must be for `context`.
    func withSharedContext<Result>(_ context: PolicyContext, _ body: (PolicyInstance?) -> Result) -> Result {
        let cache = ThreadInstanceCache.current
        if let held = cache.held, held.engine == token.identifier { return body(held.instance) }
        do throws(PolicyError) {
            return try withInstance { instance in
                instance.holdContext(context)
                cache.held = (token.identifier, instance)
                defer {
                    cache.held = nil
                    instance.releaseContext()
                }
                return body(instance)
            }
        } catch {
            // No instance could be made: each hook then fails (and falls back) on its own.
            return body(nil)
        }
    }

    /// What one hook call produced.
    enum Outcome<Value> {
        case decided(Value, output: LuaValue?)
        case missing
        case failed(PolicyError, output: LuaValue?)
    }

    /// Calls `hook` with `ctx` and the arguments `arguments` pushes, and reads the result.
    func run<Value>(
        _ hook: String, context: PolicyContext, traced: Bool,
        arguments: (PolicyInstance, LuaStack) throws(PolicyError) -> Int32,
        read: (PolicyInstance, LuaStack, _ first: Int32, _ count: Int32) throws(LuaError) -> Value
    ) -> (outcome: Outcome<Value>, version: String, reads: [ExperimentRead]) {
        var version = ""
        var reads: [ExperimentRead] = []
        do throws(PolicyError) {
            let outcome: Outcome<Value> = try withInstance { instance throws(PolicyError) in
                version = instance.version
                guard let function = try instance.function(named: hook) else { return .missing }
                instance.experiments.hook = hook
                defer {
                    if !instance.holdsContext { reads = instance.experiments.takeReads() }
                    instance.endCall()
                }
                var output: LuaValue?
                var badArguments: PolicyError?
                do throws(LuaError) {
                    let value = try instance.state.call(function, chunkName: instance.source.chunkName, arguments: { stack throws(LuaError) in
                        instance.pushContext(context, onto: stack)
                        do throws(PolicyError) {
                            return try arguments(instance, stack) + 1
                        } catch {
                            badArguments = error
                            throw LuaError(kind: .badResult, message: error.reason)
                        }
                    }, results: { stack, first, count throws(LuaError) in
                        if traced, count > 0 { output = try? stack.value(at: first) }
                        return try read(instance, stack, first, count)
                    })
                    return .decided(value, output: output)
                } catch {
                    if var badArguments {
                        badArguments.hook = hook
                        return .failed(badArguments, output: nil)
                    }
                    var failure = PolicyError(error, hook: hook, script: instance.source.chunkName)
                    if error.kind == .badResult, failure.line == nil {
                        failure.line = instance.state.definitionLine(of: function)
                    }
                    return .failed(failure, output: output)
                }
            }
            return (outcome, version, reads)
        } catch {
            return (.failed(error, output: nil), version, reads)
        }
    }

    /// Calls `hook` and turns its outcome into a decision, using `fallback` when the hook is
    /// missing or fails.
    func decide<Value: Sendable>(
        _ hook: String, context: PolicyContext, traced: Bool, inputs: @autoclosure () -> [LuaValue],
        fallback: () -> Value,
        arguments: (PolicyInstance, LuaStack) throws(PolicyError) -> Int32,
        read: (PolicyInstance, LuaStack, Int32, Int32) throws(LuaError) -> Value
    ) -> Decision<Value> {
        let started = traced ? ContinuousClock.now : nil
        let (outcome, version, reads) = run(hook, context: context, traced: traced, arguments: arguments, read: read)
        var decision: Decision<Value>
        var output: LuaValue?
        switch outcome {
        case .decided(let value, let raw):
            decision = Decision(value: value, source: .policy)
            output = raw
        case .missing:
            decision = Decision(value: fallback(), source: .defaultForMissingHook)
        case .failed(let error, let raw):
            decision = Decision(value: fallback(), source: .fallback(error))
            output = raw
        }
        if !reads.isEmpty { decision.exposures = ExperimentRead.exposures(reads, context: context, policyVersion: version, placement: nil) }
        if let started {
            decision.trace = DecisionTrace(
                policyVersion: version, hook: hook, inputs: inputs(), context: DecisionTrace.bounded(context), output: output,
                durationNanoseconds: (ContinuousClock.now - started).nanoseconds,
                fallbackReason: Self.fallbackReason(decision.source))
        }
        return decision
    }

    static func fallbackReason(_ source: DecisionSource) -> String? {
        switch source {
        case .policy: return nil
        case .defaultForMissingHook: return "the policy has no such hook; the default applies"
        case .fallback(let error): return error.description
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let parts = components
        return parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000
    }
}

/// One policy version and its idle compiled states.
final class Generation: @unchecked Sendable {
    let source: PolicySource
    /// The catalog hooks see.
    let catalog: PolicyCatalog
    /// The catalog's part in every storefront plan.
    let storefrontLayout: StorefrontLayout
    /// The script's and the catalog's version.
    let version: String
    /// When the policy was compiled and validated.
    let loadedAt = Date()
    /// Counts reloads: 0 for the first policy, then one more for each (set before publication).
    var number = 0
    private let limits: LuaLimits
    private let print: LuaState.PrintHandler
    private let lineCounts: LuaLineCounts?
    private let idle: Mutex<[PolicyInstance]>
    /// What the lint found in the policy's table.
    let lint: PolicyLint
    /// The experiments the policy declares, by name.
    let experiments: [String: ExperimentDeclaration]

    /// Compiles the policy once to validate it; that state becomes the first idle one.
    init(source: PolicySource, catalog: PolicyCatalog, limits: LuaLimits, print: @escaping LuaState.PrintHandler,
         lineCounts: LuaLineCounts?) throws(PolicyError) {
        self.source = source
        self.catalog = catalog
        storefrontLayout = StorefrontLayout(catalog)
        version = PolicyVersion.of(source, catalog: catalog)
        self.limits = limits
        self.print = print
        self.lineCounts = lineCounts
        let first = try PolicyInstance(source: source, catalog: catalog, layout: storefrontLayout, version: version, limits: limits,
                                       print: print, lineCounts: lineCounts)
        lint = first.lint()
        experiments = first.experiments.declarations
        idle = Mutex([first])
    }

    /// An idle state, or a newly compiled one.
    func take() throws(PolicyError) -> PolicyInstance {
        if let instance = idle.withLock({ $0.popLast() }) { return instance }
        return try makeInstance()
    }

    /// Compiles states until `count` are idle.
    func prepare(_ count: Int) throws(PolicyError) {
        while idle.withLock({ $0.count }) < count {
            let instance = try makeInstance()
            idle.withLock { $0.append(instance) }
        }
    }

    private func makeInstance() throws(PolicyError) -> PolicyInstance {
        try PolicyInstance(source: source, catalog: catalog, layout: storefrontLayout, version: version, limits: limits,
                           print: print, lineCounts: lineCounts)
    }

    /// Returns a state after use.
    func give(back instance: PolicyInstance, keepingAtMost limit: Int) {
        idle.withLock { states in
            if states.count < limit { states.append(instance) }
        }
    }
}
