import Foundation
import Testing
@testable import LuaBridge

private struct Offer: Codable, Equatable {
    var paymentMode: String
    var periodCount: Int
}

private struct Plan: Codable, Equatable {
    var productID: String
    var displayName: String
    var groupLevel: Int
    var isFamilyShareable: Bool
    var price: Double
    var tags: [String]
    var offer: Offer?
    var balances: [String: Int]
}

@Suite struct CodingTests {
    private let plan = Plan(productID: "pass.premium", displayName: "Premium", groupLevel: 1,
                            isFamilyShareable: true, price: 4.99, tags: ["best", "new"],
                            offer: Offer(paymentMode: "freeTrial", periodCount: 1),
                            balances: ["6F3A93AB": 2, "displayName": 1])

    @Test func encodedValuesAppearInLuaWithSnakeCaseKeys() throws {
        let state = try LuaState()
        let function = try state.load("""
        return function(plan)
            return string.format("%s|%s|%d|%s|%.2f|%s|%s|%d|%d|%d", plan.product_id, plan.display_name,
                plan.group_level, tostring(plan.is_family_shareable), plan.price, plan.tags[2],
                plan.offer.payment_mode, plan.offer.period_count, plan.balances["6F3A93AB"], plan.balances.displayName)
        end
        """, chunkName: "check.lua")
        let encoder = LuaEncoder()
        let result = try state.call(function, arguments: { stack throws(LuaError) in
            try encoder.push(plan, onto: stack)
            return 1
        }, results: { stack, first, _ throws(LuaError) in stack.string(at: first) })
        #expect(result == "pass.premium|Premium|1|true|4.99|new|freeTrial|1|2|1")
    }

    @Test func integersStayIntegers() throws {
        let state = try LuaState()
        let function = try state.load("return function(plan) return math.type(plan.group_level), plan.offer.period_count end", chunkName: "check.lua")
        let encoder = LuaEncoder()
        let kind = try state.call(function, arguments: { stack throws(LuaError) in
            try encoder.push(plan, onto: stack)
            return 1
        }, results: { stack, first, _ throws(LuaError) in stack.string(at: first) })
        #expect(kind == "integer")
    }

    @Test func valuesRoundTripThroughLua() throws {
        let state = try LuaState()
        let identity = try state.load("return function(value) return value end", chunkName: "identity.lua")
        let encoder = LuaEncoder()
        let decoder = LuaDecoder()
        let back = try state.call(identity, arguments: { stack throws(LuaError) in
            try encoder.push(plan, onto: stack)
            return 1
        }, results: { stack, first, _ throws(LuaError) in try decoder.decode(Plan.self, from: stack, at: first) })
        #expect(back == plan)
    }

    @Test func tablesWrittenInLuaDecodeIntoSwiftTypes() throws {
        let state = try LuaState()
        let make = try state.load("""
        return function()
            return { product_id = "tip.small", display_name = "Small Tip", group_level = 0,
                     is_family_shareable = false, price = 0.99, tags = {}, balances = {} }
        end
        """, chunkName: "make.lua")
        let decoder = LuaDecoder()
        let made = try state.call(make, arguments: { _ throws(LuaError) in 0 },
                                  results: { stack, first, _ throws(LuaError) in try decoder.decode(Plan.self, from: stack, at: first) })
        #expect(made.productID == "tip.small" && made.offer == nil && made.tags.isEmpty)
    }

    @Test func aMismatchNamesThePath() throws {
        let state = try LuaState()
        let make = try state.load("""
        return function()
            return { product_id = "x", display_name = "X", group_level = 1, is_family_shareable = true,
                     price = 1, tags = { "a", 7 }, balances = {} }
        end
        """, chunkName: "make.lua")
        let decoder = LuaDecoder()
        let error = #expect(throws: LuaError.self) {
            try state.call(make, arguments: { _ throws(LuaError) in 0 },
                           results: { stack, first, _ throws(LuaError) in try decoder.decode(Plan.self, from: stack, at: first) })
        }
        #expect(error?.kind == .badResult)
        #expect(error?.message == "tags[2]: expected a string, got number")
    }

    @Test func aFloatIsNotAnInteger() throws {
        let state = try LuaState()
        let decoder = LuaDecoder()
        let error = #expect(throws: LuaError.self) {
            try state.withStack { stack throws(LuaError) in
                stack.push(2.5)
                return try decoder.decode(Int.self, from: stack, at: -1)
            }
        }
        #expect(error?.message.contains("expected an integer") == true)
    }

    @Test func luaValuesCopyDeeply() throws {
        let state = try LuaState()
        let value = try state.evaluate("return { 1, 2, 3, name = 'pass', nested = { ok = true } }")
        guard case .table(let table) = value else { Issue.record("expected a table"); return }
        #expect(table.array == [.integer(1), .integer(2), .integer(3)])
        #expect(table.hash[.string("name")] == .string("pass"))
        #expect(table.hash[.string("nested")] == .table(LuaTable(hash: [.string("ok"): .boolean(true)])))
    }

    @Test func luaValuesReadAndWriteJSON() throws {
        let json = #"{"attributes":{"cohort":"B","days":12,"ratio":0.5,"flags":[true,false]}}"#
        let value = try JSONDecoder().decode(LuaValue.self, from: Data(json.utf8))
        let encoded = try JSONEncoder().encode(value)
        let again = try JSONDecoder().decode(LuaValue.self, from: encoded)
        #expect(again == value)
        guard case .table(let table) = value, case .table(let attributes)? = table.hash[.string("attributes")] else {
            Issue.record("expected nested tables"); return
        }
        #expect(attributes.hash[.string("days")] == .integer(12))
        #expect(attributes.hash[.string("flags")] == .table(LuaTable(array: [.boolean(true), .boolean(false)])))
    }
}
