/// The limits every call into a Lua state runs under.
///
/// The instruction budget and the deadline apply to one call; the memory cap to the whole
/// state. When a limit is hit the call fails with a ``LuaError`` of the matching kind and the
/// state stays usable for the next call.
public struct LuaLimits: Sendable, Equatable {
    /// Lua VM instructions one call may execute.
    public var instructionBudget: Int
    /// Wall-clock time one call may take, checked as instructions run.
    public var deadline: Duration
    /// Bytes the state may hold in all; zero means no cap.
    public var memoryLimit: Int

    /// Creates limits.
    public init(instructionBudget: Int = 10_000_000, deadline: Duration = .milliseconds(250),
                memoryLimit: Int = 64 << 20) {
        self.instructionBudget = instructionBudget
        self.deadline = deadline
        self.memoryLimit = memoryLimit
    }

    /// Ten million instructions, 250 ms and 64 MiB: far above what a business rule needs,
    /// far below what would hurt a host.
    public static let `default` = LuaLimits()

    /// How many instructions run between two checks of the budget and the clock.
    var checkInterval: Int { max(1, min(1_000, instructionBudget)) }

    var deadlineSeconds: Double {
        let parts = deadline.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
