import Testing
@testable import LuaBridge

@Suite struct LimitTests {
    private let tight = LuaLimits(instructionBudget: 200_000, deadline: .milliseconds(200), memoryLimit: 8 << 20)

    /// Runs `hostile` and expects an error of `kind`; then proves the same state still works.
    private func expectContained(_ hostile: String, kind: LuaError.Kind, limits: LuaLimits? = nil) throws {
        let state = try LuaState(limits: limits ?? tight)
        let error = #expect(throws: LuaError.self) { try state.evaluate(hostile, chunkName: "policy.lua") }
        #expect(error?.kind == kind, "\(error.map(String.init(describing:)) ?? "no error")")
        #expect(try state.evaluate("local t = {} for i = 1, 100 do t[i] = i end return #t") == .integer(100))
    }

    @Test func infiniteLoopExhaustsTheBudget() throws {
        try expectContained("while true do end", kind: .instructionBudget)
    }

    @Test func infiniteLoopCatchingItsOwnErrorStillStops() throws {
        try expectContained("while true do pcall(function() while true do end end) end", kind: .instructionBudget)
    }

    @Test func deadlineStopsASlowCall() throws {
        let limits = LuaLimits(instructionBudget: Int.max / 2, deadline: .milliseconds(50), memoryLimit: 8 << 20)
        try expectContained("while true do end", kind: .deadline, limits: limits)
    }

    @Test func memoryBombHitsTheCap() throws {
        try expectContained("local t = {} for i = 1, 1e8 do t[i] = ('x'):rep(64) .. i end", kind: .memory,
                            limits: LuaLimits(instructionBudget: Int.max / 2, deadline: .seconds(10), memoryLimit: 8 << 20))
    }

    @Test func hugeStringRepIsRefused() throws {
        let state = try LuaState(limits: tight)
        let error = #expect(throws: LuaError.self) { try state.evaluate("return string.rep('x', 2^40)") }
        #expect(error?.kind == .runtime && error?.message.contains("too large") == true)
        try expectContained("return string.rep('x', 2^28)", kind: .memory)
    }

    @Test func unboundedRecursionIsAnError() throws {
        let state = try LuaState(limits: LuaLimits(instructionBudget: Int.max / 2, deadline: .seconds(10), memoryLimit: 64 << 20))
        let error = #expect(throws: LuaError.self) {
            try state.evaluate("local function f(n) return 1 + f(n + 1) end return f(1)", chunkName: "policy.lua")
        }
        #expect(error?.kind == .runtime || error?.kind == .memory)
        #expect(try state.evaluate("return 2") == .integer(2))
    }

    @Test func errorWithATableIsDescribed() throws {
        let state = try LuaState(limits: tight)
        let error = #expect(throws: LuaError.self) { try state.evaluate("error({ code = 7 })", chunkName: "policy.lua") }
        #expect(error?.kind == .runtime)
        #expect(error?.message.contains("table") == true)
    }

    @Test func errorWithALoopingToStringDoesNotHang() throws {
        let state = try LuaState(limits: tight)
        let error = #expect(throws: LuaError.self) {
            try state.evaluate("error(setmetatable({}, { __tostring = function() while true do end end }))")
        }
        #expect(error?.kind == .runtime)
        #expect(try state.evaluate("return 3") == .integer(3))
    }

    @Test func syntaxErrorNamesChunkAndLine() throws {
        let state = try LuaState(limits: tight)
        let error = #expect(throws: LuaError.self) { try state.evaluate("local x = 1\nreturn x +", chunkName: "policy.lua") }
        #expect(error?.kind == .syntax)
        #expect(error?.chunkName == "policy.lua")
        #expect(error?.line == 2)
        #expect(error?.description.hasPrefix("syntax error at policy.lua:2:") == true)
    }

    @Test func runtimeErrorCarriesATraceback() throws {
        let state = try LuaState(limits: tight)
        let error = #expect(throws: LuaError.self) {
            try state.evaluate("local function inner() error('boom') end\nlocal function outer() inner() end\nouter()", chunkName: "policy.lua")
        }
        #expect(error?.line == 1)
        #expect(error?.message == "boom")
        #expect(error?.traceback?.contains("stack traceback") == true)
    }

    @Test func memoryInUseReturnsAfterACappedCall() throws {
        // A budget and a deadline the loop cannot reach first: the memory cap is what stops it.
        let state = try LuaState(limits: LuaLimits(instructionBudget: 1_000_000_000, deadline: .seconds(60), memoryLimit: 8 << 20))
        let before = state.memoryInUse
        let error = #expect(throws: LuaError.self) { try state.evaluate("local t = {} for i = 1, 1e8 do t[i] = i end") }
        #expect(error?.kind == .memory)
        #expect(state.memoryInUse < before + (1 << 20))
    }

    @Test func functionsCannotLeaveTheState() throws {
        let state = try LuaState(limits: tight)
        let error = #expect(throws: LuaError.self) { try state.evaluate("return { f = print }") }
        #expect(error?.kind == .badResult)
    }

    @Test func selfContainingTablesAreRefused() throws {
        let state = try LuaState(limits: tight)
        let error = #expect(throws: LuaError.self) { try state.evaluate("local t = {} t.me = t return t") }
        #expect(error?.kind == .badResult)
    }
}

@Suite struct CaughtLimitTests {
    @Test func aMemoryErrorCaughtByPcallStillEndsTheCall() throws {
        let state = try LuaState(limits: LuaLimits(instructionBudget: 50_000_000, deadline: .seconds(20), memoryLimit: 8 << 20))
        let error = #expect(throws: LuaError.self) {
            try state.evaluate("""
            local survived = 0
            for round = 1, 1000 do
                pcall(function() local t = {} for i = 1, 1e9 do t[i] = i end end)
                survived = survived + 1
            end
            return survived
            """)
        }
        #expect(error?.kind == .memory)
        #expect(try state.evaluate("return 5") == .integer(5))
    }
}
