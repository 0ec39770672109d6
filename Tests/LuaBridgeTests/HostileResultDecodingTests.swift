import Foundation
import Testing
@testable import LuaBridge

/// What a hostile policy can hand back, read by ``LuaDecoder``: each ends in a `badResult`
/// naming where, never in a trap or a Swift stack overflow.
@Suite struct HostileResultDecodingTests {
    /// A shape that nests as deeply as the value does.
    private indirect enum Tree: Decodable {
        case leaf(String)
        case branches([Tree])

        init(from decoder: any Decoder) throws {
            if var list = try? decoder.unkeyedContainer() {
                var branches: [Tree] = []
                while !list.isAtEnd { branches.append(try list.decode(Tree.self)) }
                self = .branches(branches)
            } else {
                self = .leaf(try decoder.singleValueContainer().decode(String.self))
            }
        }
    }

    private struct Stamped: Decodable {
        var at: Date
    }

    /// Runs `script` and decodes what it returns as `type`.
    private func decode<Value: Decodable>(_ type: Value.Type, returnedBy script: String) throws(LuaError) -> Value {
        let state = try LuaState(limits: LuaLimits(instructionBudget: 50_000_000, deadline: .seconds(20), memoryLimit: 256 << 20))
        let function = try state.load("return function() \(script) end", chunkName: "policy.lua")
        let decoder = LuaDecoder()
        return try state.call(function, arguments: { _ in 0 },
                              results: { stack, first, _ throws(LuaError) in try decoder.decode(type, from: stack, at: first) })
    }

    @Test("a table nested 100,000 deep is refused as nesting too deeply")
    func deepNestingIsRefused() {
        let script = "local t = 'leaf' for i = 1, 100000 do t = { t } end return t"
        let error = #expect(throws: LuaError.self) { try decode(Tree.self, returnedBy: script) }
        #expect(error?.kind == .badResult)
        #expect(error?.message.contains("nests too deeply") == true, "\(String(describing: error))")
        #expect(throws: LuaError.self) { try decode(LuaValue.self, returnedBy: script) }
    }

    @Test("a table that contains itself is refused, whatever shape is asked for")
    func selfContainingTableIsRefused() {
        let script = "local t = {} t[1] = t return t"
        let errors = [
            #expect(throws: LuaError.self) { try decode(Tree.self, returnedBy: script) },
            #expect(throws: LuaError.self) { try decode(LuaValue.self, returnedBy: script) },
            #expect(throws: LuaError.self) { try decode([[String]].self, returnedBy: script) },
        ]
        for error in errors {
            #expect(error?.kind == .badResult, "refused as a bad result, not by a memory or stack limit: \(String(describing: error))")
        }
    }

    @Test("NaN, infinite and far-off dates are refused; integers out of range say so")
    func numbersOutOfRangeAreRefused() {
        for seconds in ["0/0", "1/0", "-1/0", "1e300", "math.maxinteger"] {
            #expect(throws: LuaError.self, "\(seconds)") { try decode(Stamped.self, returnedBy: "return { at = \(seconds) }") }
        }
        let error = #expect(throws: LuaError.self) { try decode(Int8.self, returnedBy: "return 300") }
        #expect(error?.message.contains("out of range") == true)
        #expect(throws: LuaError.self) { try decode(Int.self, returnedBy: "return 2^63") }
        #expect(throws: LuaError.self) { try decode(UInt.self, returnedBy: "return -1") }
    }

    @Test("a table with a float, a huge, a zero or a boolean key is not a list")
    func oddKeysAreNotAList() {
        for table in ["{ [1.5] = 'a' }", "{ [math.maxinteger] = 'a' }", "{ [0] = 'a' }", "{ 'a', [true] = 'b' }"] {
            #expect(throws: LuaError.self, "\(table)") { try decode([String].self, returnedBy: "return \(table)") }
        }
    }
}
