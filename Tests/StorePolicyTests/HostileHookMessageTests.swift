import Foundation
import LuaBridge
import Testing
import StorePolicy

/// What a hostile or buggy hook's failure says, as `storerules eval` prints it: one line naming
/// the hook and the script, and the reason in words, under the limits `eval` may be given.
@Suite struct HostileHookMessageTests {
    static let hostile: [(name: String, body: String, reason: String)] = [
        ("infinite loop", "while true do end", "instruction budget exhausted"),
        ("memory bomb", "local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(100) .. i end", "memory limit"),
        ("string.rep of 2^40", "return string.rep('x', 2^40)", "resulting string too large"),
        ("unbounded recursion", "local function f() return 1 + f() end return f()", "memory limit"),
        ("io", "return io.open('/etc/passwd')", "global 'io'"),
        ("os", "os.exit(1)", "global 'os'"),
        ("require", "return require('os')", "global 'require'"),
        ("debug", "return debug.getinfo(1)", "global 'debug'"),
        ("package", "return package.loaded", "global 'package'"),
        ("binary chunk", "return load(string.char(27, 76, 117, 97), 'x', 'b')", "only text chunks"),
        ("error with a table", "error({ code = 1 })", "error object is a table value"),
        ("looping __tostring", "error(setmetatable({}, { __tostring = function() while true do end end }))", "error object is a table value"),
        ("coroutine.yield", "coroutine.yield(1)", "global 'coroutine'"),
        ("collectgarbage stop", "collectgarbage('stop') local t = {} for i = 1, 1e8 do t[i] = {} end", "only \"count\""),
        ("wrong return type", "return 'yes'", "bad result: expected a boolean, got \"yes\""),
    ]

    @Test(arguments: hostile.indices)
    func aHostileHookFailsWithOneLineNamingItsReason(index: Int) throws {
        let hostile = Self.hostile[index]
        let engine = try PolicyEngine(source: PolicySource(text: """
            local policy = {}
            function policy.show_merchandising(ctx, placement)
                \(hostile.body)
            end
            return policy
            """), catalog: .empty, limits: LuaLimits(deadline: .milliseconds(20_000), memoryLimit: 16 << 20))
        let request = HookRequest(hook: "show_merchandising", arguments: [.string("home")])
        let error = #expect(throws: PolicyError.self, "\(hostile.name)") { try request.evaluate(with: engine) }
        let message = error?.description ?? ""
        #expect(!message.contains("\n"), "\(hostile.name): \(message)")
        #expect(message.hasPrefix("show_merchandising (policy.lua"), "\(hostile.name): \(message)")
        #expect(message.contains(hostile.reason), "\(hostile.name): \(message)")
    }
}
