import Synchronization
import Testing
@testable import LuaBridge

/// Host functions that allocate while the state is at its memory cap: the allocation inside
/// the Swift function always succeeds, and the memory error is raised afterwards from C, so
/// no Lua error unwinds a Swift frame (every `defer` in the host function runs).
@Suite struct HostFunctionMemoryTests {
    private let capped = LuaLimits(instructionBudget: Int.max / 2, deadline: .seconds(20), memoryLimit: 2 << 20)

    /// How many host calls began, and how many left through their `defer`.
    private final class CallCount: Sendable {
        let entered = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        var balanced: Bool { entered.load(ordering: .relaxed) == finished.load(ordering: .relaxed) }
    }

    /// A state with `grow(n)`, a host function that pushes a table of `n` fresh strings.
    private func stateWithAllocatingHostFunction() throws -> (LuaState, CallCount) {
        let state = try LuaState(limits: capped)
        let calls = CallCount()
        state.defineFunction("grow") { stack in
            calls.entered.add(1, ordering: .relaxed)
            defer { calls.finished.add(1, ordering: .relaxed) }
            let count = Int(stack.integer(at: 1) ?? 0)
            stack.pushTable(arrayCount: count)
            for position in 1...max(count, 1) {
                stack.push(String(repeating: "m", count: 40) + String(position))
                stack.setItem(position, of: -2)
            }
            return 1
        }
        return (state, calls)
    }

    @Test("a host function that allocates past the cap ends in a memory error after its Swift frame returned")
    func allocationPastTheCapIsRaisedAfterTheHostFunction() throws {
        let (state, calls) = try stateWithAllocatingHostFunction()
        for _ in 0..<60 {
            let error = #expect(throws: LuaError.self) {
                try state.evaluate("local kept = {} while true do kept[#kept + 1] = grow(500) end")
            }
            #expect(error?.kind == .memory, "\(error.map(String.init(describing:)) ?? "no error")")
        }
        #expect(calls.balanced)
        #expect(try state.evaluate("return #grow(10)") == .integer(10))
    }

    @Test("a script that catches the memory error of a host function cannot go on allocating")
    func pcallCannotEscapeTheMemoryErrorOfAHostFunction() throws {
        let (state, calls) = try stateWithAllocatingHostFunction()
        let error = #expect(throws: LuaError.self) {
            try state.evaluate("""
                local kept = {}
                for i = 1, 1e6 do pcall(function() kept[#kept + 1] = grow(500) end) end
                return #kept
                """)
        }
        #expect(error?.kind == .memory)
        #expect(calls.balanced)
        #expect(try state.evaluate("return 1 + 1") == .integer(2))
    }

    @Test("a host function called at the cap many times leaves the state's accounting balanced")
    func hostFunctionAtTheCapManyTimes() throws {
        let (state, calls) = try stateWithAllocatingHostFunction()
        let baseline = state.memoryInUse
        for _ in 0..<50 {
            _ = try? state.evaluate("local kept = {} for i = 1, 1e6 do kept[i] = grow(200) end")
        }
        _ = try state.evaluate("return 0")
        #expect(calls.entered.load(ordering: .relaxed) > 50)
        #expect(calls.balanced)
        #expect(state.memoryInUse < baseline + (1 << 20))
    }
}
