/// The decision section of `storerules bench`: the cost of one decision through the engine, as
/// a Swift closure and through the Lua C API in C, and decisions per second on 1 and 2 threads.
public struct DecisionBenchFigures: Sendable, Encodable {
    /// Decisions per measurement.
    public var iterations: Int
    /// Nanoseconds per decision through the `PolicyEngine`.
    public var engineNanosecondsPerDecision: Double
    /// Nanoseconds per decision of the rule written as a Swift closure.
    public var swiftClosureNanosecondsPerDecision: Double
    /// Nanoseconds per decision of the rule called through the Lua C API in C.
    public var cAPINanosecondsPerDecision: Double
    /// The same C call with a count hook and a deadline armed around it.
    public var cAPIWithLimitsNanosecondsPerDecision: Double
    /// `engineNanosecondsPerDecision / cAPINanosecondsPerDecision`.
    public var engineToCAPIRatio: Double
    /// `engineNanosecondsPerDecision / cAPIWithLimitsNanosecondsPerDecision`.
    public var engineToCAPIWithLimitsRatio: Double
    /// `engineNanosecondsPerDecision / swiftClosureNanosecondsPerDecision`.
    public var engineToSwiftClosureRatio: Double
    /// Decisions per second through the engine on one thread.
    public var decisionsPerSecond1Thread: Double
    /// Decisions per second through the engine on two threads at once.
    public var decisionsPerSecond2Threads: Double
    /// `decisionsPerSecond2Threads / decisionsPerSecond1Thread`.
    public var twoThreadScaling: Double
    /// The C baseline's own scaling from one thread to two, for reference.
    public var cAPITwoThreadScaling: Double

    /// The goal for ``engineToCAPIRatio``.
    public static let engineToCAPIGoal = 0.7
    /// The goal for ``twoThreadScaling``.
    public static let twoThreadScalingGoal = 1.9

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
    }
}
