import Foundation
import LuaBridge
import StoreCore

/// A hook's decision: the value to use, whether it is the hook's own or the documented
/// default, and, when asked for, a trace.
public struct Decision<Value: Sendable>: Sendable {
    /// The value to use.
    public var value: Value
    /// Where the value came from.
    public var source: Source
    /// The trace, when the decision was traced.
    public var trace: DecisionTrace?
    /// The variants the decision read that the customer's context did not hold as recorded:
    /// the exposures the caller records before it shows the decision (see ``ExperimentExposure``).
    public var exposures: [ExperimentExposure]

    /// Creates a decision.
    public init(value: Value, source: Source, trace: DecisionTrace? = nil, exposures: [ExperimentExposure] = []) {
        self.value = value
        self.source = source
        self.trace = trace
        self.exposures = exposures
    }

    /// Where a decision's value came from: the same for decisions of every value type.
    public typealias Source = DecisionSource

    /// The decision with its value changed by `transform`, from the same source and with the
    /// same trace.
    func map<Other: Sendable>(_ transform: (Value) -> Other) -> Decision<Other> {
        Decision<Other>(value: transform(value), source: source, trace: trace, exposures: exposures)
    }

    /// The failure that made the default apply, if any.
    public var failure: PolicyError? {
        if case .fallback(let error) = source { return error }
        return nil
    }
}

extension Decision: Equatable where Value: Equatable {
    /// Decisions are equal when their values and sources are (traces are not compared).
    public static func == (lhs: Decision, rhs: Decision) -> Bool {
        lhs.value == rhs.value && lhs.source == rhs.source
    }
}

/// What happened in one decision, for debugging and audit.
public struct DecisionTrace: Sendable, Equatable, Codable {
    /// The policy version (content hash) that decided.
    public var policyVersion: String
    /// The hook called.
    public var hook: String
    /// The arguments after `ctx`, as Lua saw them.
    public var inputs: [LuaValue]
    /// The context, as Lua saw it (without the catalog).
    public var context: PolicyContext
    /// What the hook returned, before validation; nil when it failed or is missing.
    public var output: LuaValue?
    /// How long the decision took, in nanoseconds.
    public var durationNanoseconds: Int64
    /// Why the default was used, when it was.
    public var fallbackReason: String?

    private enum CodingKeys: String, CodingKey {
        case policyVersion = "policy_version", hook, inputs, context, output
        case durationNanoseconds = "duration_ns", fallbackReason = "fallback_reason"
    }

    /// How many of an event's recent times a trace keeps; its count and last time stay whole.
    public static let recentEventTimesKept = 5

    /// `context` as a trace keeps it: each event's recent times cut to
    /// ``recentEventTimesKept``, so a trace stays small however busy the customer is (the
    /// ledger caps how many event names a customer has).
    public static func bounded(_ context: PolicyContext) -> PolicyContext {
        var bounded = context
        for (name, history) in context.customer.events where history.recent.count > recentEventTimesKept {
            bounded.customer.events[name] = EventHistory(
                count: history.count, last: history.last, recent: Array(history.recent.prefix(recentEventTimesKept)))
        }
        return bounded
    }
}
