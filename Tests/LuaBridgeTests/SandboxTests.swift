import Testing
@testable import LuaBridge

@Suite struct SandboxTests {
    private func run(_ source: String) throws(LuaError) -> LuaValue {
        try LuaState().evaluate(source, chunkName: "policy.lua")
    }

    @Test(arguments: ["io", "os", "package", "require", "debug", "dofile", "loadfile", "rawset", "coroutine"])
    func dangerousGlobalsAreAbsent(name: String) throws {
        #expect(try run("return \(name) == nil") == .boolean(true))
    }

    @Test func stringDumpIsAbsent() throws {
        #expect(try run("return string.dump == nil") == .boolean(true))
    }

    @Test func allowedLibrariesWork() throws {
        let result = try run("""
        return string.format("%s-%d", ("bird"):upper(), math.floor(2.7)) .. table.concat({1, 2}, ",") .. utf8.char(233)
        """)
        #expect(result == .string("BIRD-21,2é"))
    }

    @Test func accessingIoIsAClearRuntimeError() throws {
        let error = #expect(throws: LuaError.self) { try run("return io.open('/etc/passwd')") }
        #expect(error?.kind == .runtime)
        #expect(error?.chunkName == "policy.lua")
        #expect(error?.line == 1)
        #expect(error?.message.contains("io") == true)
    }

    @Test func globalsAreReadOnly() throws {
        let error = #expect(throws: LuaError.self) { try run("counter = 1") }
        #expect(error?.message.contains("read-only") == true)
    }

    @Test func libraryTablesAreReadOnly() throws {
        let state = try LuaState()
        #expect(throws: LuaError.self) { try state.evaluate("string.upper = nil") }
        #expect(throws: LuaError.self) { try state.evaluate("math.pi = 3") }
        #expect(try state.evaluate("return string.upper('a')") == .string("A"))
        #expect(try state.evaluate("return math.pi > 3.14") == .boolean(true))
    }

    @Test func stringMetatableIsLocked() throws {
        let state = try LuaState()
        #expect(try state.evaluate("return getmetatable('')") == .boolean(false))
        #expect(throws: LuaError.self) { try state.evaluate("getmetatable('').__index = {}") }
        #expect(try state.evaluate("return ('x'):rep(3)") == .string("xxx"))
    }

    @Test func binaryChunksCannotBeLoaded() throws {
        let error = #expect(throws: LuaError.self) {
            try run("return load('\\27Lua', 'x', 'b')")
        }
        #expect(error?.message.contains("text") == true)
        let result = try run("local f, message = load('\\27Lua\\84\\0') return message")
        guard case .string(let message) = result else { Issue.record("expected a message"); return }
        #expect(message.contains("binary"))
    }

    @Test func textLoadRunsInTheSandbox() throws {
        #expect(try run("return load('return os')()") == .nil)
        #expect(try run("return load('return 1 + 1')()") == .integer(2))
    }

    @Test func collectGarbageOnlyCounts() throws {
        let state = try LuaState()
        guard case .number(let kilobytes) = try state.evaluate("return collectgarbage('count')") else {
            Issue.record("count should be a number"); return
        }
        #expect(kilobytes > 0)
        let error = #expect(throws: LuaError.self) {
            try state.evaluate("collectgarbage('stop') local t = {} for i = 1, 1e7 do t[i] = {} end")
        }
        #expect(error?.message.contains("count") == true)
        #expect(try state.evaluate("return 1") == .integer(1))
    }

    @Test func finalizersAreRefused() throws {
        let error = #expect(throws: LuaError.self) {
            try run("setmetatable({}, { __gc = function() while true do end end })")
        }
        #expect(error?.message.contains("__gc") == true)
    }

    @Test func printGoesToTheHost() throws {
        let lines = LinesBox()
        let state = try LuaState(print: { lines.append($0) })
        _ = try state.evaluate("print('hello', 42, true, nil, {})")
        #expect(lines.all == ["hello\t42\ttrue\tnil\ttable"])
    }
}

/// Collects printed lines across the `@Sendable` boundary.
final class LinesBox: @unchecked Sendable {
    private var lines: [String] = []
    func append(_ line: String) { lines.append(line) }
    var all: [String] { lines }
}

@Suite struct HostFunctionTests {
    @Test func hostFunctionsAreCallableAndTheirErrorsAreLuaErrors() throws {
        let state = try LuaState()
        state.defineFunction("double") { stack throws(LuaError) in
            guard let value = stack.integer(at: 1) else {
                throw LuaError(kind: .runtime, message: "double expects an integer")
            }
            stack.push(value * 2)
            return 1
        }
        #expect(try state.evaluate("return double(21)") == .integer(42))
        #expect(try state.evaluate("return select(2, pcall(double, 'x'))") == .string("double expects an integer"))
        let error = #expect(throws: LuaError.self) { try state.evaluate("return double('x')", chunkName: "policy.lua") }
        #expect(error?.kind == .runtime)
        #expect(try state.evaluate("return double(2)") == .integer(4))
        #expect(throws: LuaError.self) { try state.evaluate("double = nil") }
    }
}
