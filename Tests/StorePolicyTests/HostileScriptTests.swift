import Foundation
import LuaBridge
import Testing
@testable import StorePolicy

/// Hostile and buggy hooks: each is a clear error within the limits, the process is unharmed,
/// and the next decision on the same engine is correct.
@Suite struct HostileScriptTests {
    static let cases: [(name: String, body: String, kind: PolicyError.Kind)] = [
        ("infinite loop", "while true do end", .instructionBudget),
        ("memory bomb", "local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(100) .. i end", .memory),
        ("string.rep of 2^40", "return string.rep('x', 2^40)", .runtime),
        ("unbounded recursion", "local function f() return 1 + f() end return f()", .memory),
        ("io", "return io.open('/etc/passwd')", .runtime),
        ("os", "os.exit(1)", .runtime),
        ("require", "return require('os')", .runtime),
        ("debug", "return debug.getinfo(1)", .runtime),
        ("package", "return package.loaded", .runtime),
        ("binary chunk through load", "return load(string.char(27, 76, 117, 97, 84, 0), 'x', 'b')", .runtime),
        ("error with a table", "error({ code = 1 })", .runtime),
        ("error with a looping __tostring", "error(setmetatable({}, { __tostring = function() while true do end end }))", .runtime),
        ("coroutine.yield outside a coroutine", "coroutine.yield(1)", .runtime),
        ("collectgarbage('stop') then allocation", "collectgarbage('stop') local t = {} for i = 1, 1e8 do t[i] = {} end", .runtime),
    ]

    @Test(arguments: cases.indices)
    func hostileHookIsContainedAndTheNextDecisionIsCorrect(index: Int) throws {
        let hostile = Self.cases[index]
        // The deadline stands far past the instruction budget and the memory limit, so that
        // they, not a busy machine's clock, stop each attack; the attack must still end in 5 s.
        let engine = try PolicyEngine(source: PolicySource(text: """
        local policy = {}
        function policy.show_merchandising(ctx, placement)
            if placement == "attack" then
                \(hostile.body)
            end
            return placement == "home"
        end
        return policy
        """), catalog: testCatalog, limits: .init(instructionBudget: 5_000_000, deadline: .seconds(4), memoryLimit: 16 << 20))
        let started = ContinuousClock.now
        let attacked = engine.showMerchandising(newCustomer, placement: "attack")
        #expect(ContinuousClock.now - started < .seconds(5), "\(hostile.name) was not stopped in time")
        let failure = try #require(attacked.failure, "\(hostile.name) should fail")
        #expect(failure.kind == hostile.kind, "\(hostile.name): \(failure)")
        #expect(failure.hook == "show_merchandising")
        #expect(failure.script == "policy.lua")
        #expect(attacked.value == true, "the default applies")
        for _ in 0..<3 {
            #expect(engine.showMerchandising(newCustomer, placement: "home") == Decision(value: true, source: .policy))
            #expect(engine.showMerchandising(newCustomer, placement: "away") == Decision(value: false, source: .policy))
        }
    }

    @Test func aSyntaxErrorNamesTheLineAndKeepsNothing() throws {
        let error = #expect(throws: PolicyError.self) {
            try makeEngine("local policy = {}\nfunction policy.features(ctx)\n  return {\nend\nreturn policy")
        }
        #expect(error?.kind == .syntax)
        #expect(error?.script == "policy.lua")
        #expect(error?.line == 4)
    }

    @Test func aPolicyMustReturnATableOfFunctions() throws {
        let notATable = #expect(throws: PolicyError.self) { try makeEngine("return 42") }
        #expect(notATable?.kind == .invalidPolicy)
        let notAFunction = #expect(throws: PolicyError.self) { try makeEngine("return { grant = 'five pellets' }") }
        #expect(notAFunction?.kind == .invalidPolicy)
        #expect(notAFunction?.hook == "grant")
    }

    @Test func topLevelCodeRunsUnderTheLimits() throws {
        let error = #expect(throws: PolicyError.self) { try makeEngine("while true do end") }
        #expect(error?.kind == .instructionBudget)
    }
}
