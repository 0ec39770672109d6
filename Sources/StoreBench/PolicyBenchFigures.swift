/// The policy section of `storerules bench`: a whole storefront plan against its hooks
/// called one by one, a reload under load, and the memory one pooled state holds.
public struct PolicyBenchFigures: Sendable, Encodable {
    /// Microseconds per storefront plan of the Backyard Birds policy for a subscriber.
    public var storefrontPlanMicroseconds: Double
    /// Microseconds for the same hooks called one by one through the engine's hook methods.
    public var storefrontHooksMicroseconds: Double
    /// How many hook calls one plan makes.
    public var storefrontHookCalls: Int
    /// `storefrontPlanMicroseconds / storefrontHooksMicroseconds`.
    public var storefrontPlanToHooksRatio: Double
    /// Milliseconds per reload of the generated policy (the median of the reloads).
    public var reloadMilliseconds: Double
    /// The slowest of the reloads, in milliseconds.
    public var reloadMaximumMilliseconds: Double
    /// Lines of the generated policy.
    public var reloadPolicyLines: Int
    /// Idle states the engine had before the reloads.
    public var reloadIdleStates: Int
    /// Reloads measured.
    public var reloads: Int
    /// Decisions the deciding threads made during the reloads.
    public var decisionsDuringReloads: Int
    /// Decisions that failed or fell back during the reloads.
    public var failedDecisionsDuringReloads: Int
    /// Bytes one pooled state of the Backyard Birds policy holds after a storefront plan,
    /// as its allocator counts them.
    public var stateMemoryBytes: Int

    /// The goal for ``storefrontPlanToHooksRatio``.
    public static let storefrontPlanToHooksGoal = 0.5
    /// The goal for ``reloadMilliseconds``.
    public static let reloadMillisecondsGoal = 5.0
    /// The goal for ``stateMemoryBytes``.
    public static let stateMemoryGoal = 64 * 1024

    enum CodingKeys: String, CodingKey {
        case storefrontPlanMicroseconds = "storefront_plan_us"
        case storefrontHooksMicroseconds = "storefront_hooks_us"
        case storefrontHookCalls = "storefront_hook_calls"
        case storefrontPlanToHooksRatio = "storefront_plan_to_hooks_ratio"
        case reloadMilliseconds = "reload_ms"
        case reloadMaximumMilliseconds = "reload_max_ms"
        case reloadPolicyLines = "reload_policy_lines"
        case reloadIdleStates = "reload_idle_states"
        case reloads
        case decisionsDuringReloads = "decisions_during_reloads"
        case failedDecisionsDuringReloads = "failed_decisions_during_reloads"
        case stateMemoryBytes = "state_memory_bytes"
    }
}
