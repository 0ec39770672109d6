import StoreCore

/// The answer to a ``HookRequest``: `{"hook", "result", "policy_version", "trace"}`.
public struct HookResponse: Sendable, Encodable {
    /// The hook that ran.
    public var hook: String
    /// What it decided, after validation.
    public var result: HookResult
    /// The policy version that decided.
    public var policyVersion: String
    /// How the decision was made.
    public var trace: DecisionTrace?
    /// Where the result came from, when a service decided (``HookRequest/decide(with:)``):
    /// `policy`, `default` (the policy lacks the hook) or `fallback` (the hook failed).
    public var source: String?
    /// Why the hook's default was used, for a `fallback`.
    public var fallbackReason: String?
    /// The variants the decision read that its context did not hold as recorded
    /// (``Decision/exposures``); not part of the JSON.
    public var exposures: [ExperimentExposure] = []

    private enum CodingKeys: String, CodingKey {
        case hook, result, policyVersion = "policy_version", trace, source, fallbackReason = "fallback_reason"
    }
}
