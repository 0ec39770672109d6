import Foundation
import LuaBridge

/// Two versions of a policy run over the same generated scenarios, and every decision that
/// differs: what `storerules diff` prints.
///
/// The scenarios come from the catalogs and from the constants of both policies and their
/// tests (see ``PolicyDiffMatrix``); each hook is asked with every argument it applies to, on
/// each side through ``HookRequest/evaluate(with:)``, so a decision is what `storerules eval`
/// prints. A failure on one side where the other decides is a change; a failure on both sides
/// is not.
public struct PolicyDiff: Sendable {
    /// One side of the comparison.
    public struct Side: Sendable {
        /// The policy.
        public var source: PolicySource
        /// The catalog it decides over.
        public var catalog: PolicyCatalog
        /// The storefront of its catalog, when it has one.
        public var storefront: String?
        /// Its test files' text, where the placements it is tested at, and constants and
        /// attribute and event names for the scenarios, are found.
        public var tests: [String]

        /// Describes a side.
        public init(source: PolicySource, catalog: PolicyCatalog, storefront: String? = nil, tests: [String] = []) {
            self.source = source
            self.catalog = catalog
            self.storefront = storefront
            self.tests = tests
        }
    }

    /// What one side decided.
    public enum Outcome: Sendable, Equatable, Encodable {
        /// The result, as `eval` prints it.
        case result(HookResult)
        /// The failure, as `eval` reports it.
        case failure(String)

        /// Writes the result as JSON, or `{"error": "..."}`.
        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .result(let result): try result.encode(to: encoder)
            case .failure(let message): try ["error": message].encode(to: encoder)
            }
        }

        /// Whether the two outcomes are the same decision: equal results, or failures both.
        func sameDecision(as other: Outcome) -> Bool {
            switch (self, other) {
            case (.failure, .failure): return true
            case let (.result(left), .result(right)): return left == right
            default: return false
            }
        }
    }

    /// A scenario that shows a change: what `storerules eval` takes to reproduce it.
    public struct Example: Sendable, Encodable {
        /// The context, exactly as `storerules eval DIR HOOK --input` reads it.
        public var input: PolicyContext
        /// The arguments after `ctx`, each what one `--arg` takes.
        public var args: [LuaValue]
        /// What the old policy decided.
        public var old: Outcome
        /// What the new policy decided.
        public var new: Outcome
    }

    /// A hook whose decisions changed.
    public struct Change: Sendable, Encodable {
        /// The hook.
        public var hook: String
        /// The scenarios it was asked in.
        public var scenarios: Int
        /// How many of them changed.
        public var scenariosChanged: Int
        /// The smallest scenarios that changed, at most the limit asked for.
        public var examples: [Example]

        private enum CodingKeys: String, CodingKey {
            case hook, scenarios, scenariosChanged = "scenarios_changed", examples
        }
    }

    /// What the comparison found.
    public struct Report: Sendable, Encodable {
        /// Every decision asked, over all hooks.
        public var scenarios: Int
        /// How long it took, in seconds, rounded to the millisecond.
        public var seconds: Double
        /// The hooks whose decisions changed.
        public var changed: [Change]
        /// The hooks whose decisions did not.
        public var unchanged: [String]
        /// The experiments added, removed or changed (a change of variants, weights or salt
        /// starts a new phase).
        public var experiments: [ExperimentChange]
    }

    private let old: Side
    private let new: Side

    /// A comparison of `old` with `new`.
    public init(old: Side, new: Side) {
        self.old = old
        self.new = new
    }

    /// Runs both policies over the matrix and reports what differs: for each of `hooks` (every
    /// known hook by default), at `placements` (by default those the tests use, or `home` and
    /// `store`), with up to `limit` examples per changed hook.
    ///
    /// - Throws: ``PolicyError`` when a policy does not load, or a hook is not one either policy
    ///   defines or knows (naming the nearest one that is, for a typo).
    public func compare(hooks: [String]? = nil, placements: [String]? = nil, limit: Int = 3) throws(PolicyError) -> Report {
        let started = ContinuousClock.now
        let oldEngine = try PolicyEngine(source: old.source, catalog: old.catalog, maximumIdleStates: 1)
        let newEngine = try PolicyEngine(source: new.source, catalog: new.catalog, maximumIdleStates: 1)
        let names = hooks ?? HookRegistry.names
        let known = HookRegistry.names + oldEngine.definedHooks + newEngine.definedHooks
        for name in names where !known.contains(name) {
            let hint = PolicyLint.resembledHook(name, in: known).map { "; did you mean '\($0)'?" } ?? ""
            throw PolicyError(kind: .badRequest, hook: name, reason: "neither policy defines a hook named '\(name)'\(hint)")
        }
        let matrix = PolicyDiffMatrix(old: old, new: new, placements: placements, engines: [oldEngine, newEngine])
        var changed: [Change] = []
        var unchanged: [String] = []
        var total = 0
        for hook in names {
            var change = Change(hook: hook, scenarios: 0, scenariosChanged: 0, examples: [])
            for scenario in matrix.scenarios(for: hook) {
                change.scenarios += 1
                let request = HookRequest(hook: hook, context: scenario.context, arguments: scenario.arguments,
                                          argumentCache: scenario.cache)
                let before = Self.outcome(request, oldEngine)
                let after = Self.outcome(request, newEngine)
                guard !before.sameDecision(as: after) else { continue }
                change.scenariosChanged += 1
                if change.examples.count < limit {
                    change.examples.append(Example(input: scenario.context, args: scenario.arguments, old: before, new: after))
                }
            }
            total += change.scenarios
            if change.scenariosChanged > 0 { changed.append(change) } else { unchanged.append(hook) }
        }
        return Report(scenarios: total, seconds: PrintedDuration.seconds(ContinuousClock.now - started), changed: changed, unchanged: unchanged,
                      experiments: ExperimentChange.between(oldEngine.experiments, newEngine.experiments))
    }

    static func outcome(_ request: HookRequest, _ engine: PolicyEngine) -> Outcome {
        do {
            return .result(try request.evaluate(with: engine).result)
        } catch {
            return .failure(error.description)
        }
    }
}
