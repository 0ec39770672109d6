import Foundation
import LuaBridge
import StorePolicy
import Testing

/// The host's attributes of a customer reach hooks through the C-built `ctx` as the host gave
/// them, however deep: tables in tables, lists, floats kept floats and integers integers, and
/// never another customer's.
@Suite struct ContextAttributeValueTests {
    static let nested: [String: LuaValue] = [
        "ratio": .number(0.25),
        "visits": .integer(12),
        "opted_in": .boolean(true),
        "plan": .table(LuaTable(hash: [
            .string("tier"): .string("gold"),
            .string("discount"): .number(0.15),
            .string("limits"): .table(LuaTable(hash: [.string("daily"): .integer(3), .string("weight"): .number(2.5)])),
        ])),
        "scores": .table(LuaTable(array: [.number(1.5), .integer(2), .table(LuaTable(array: [.number(-0.5)]))])),
    ]

    static func context(_ id: String, attributes: [String: LuaValue]) -> PolicyContext {
        PolicyContext(customer: CustomerContext(id: id, statusKnown: true, attributes: attributes))
    }

    @Test func nestedTablesAndFloatsReadBackAsTheHostGaveThem() throws {
        let engine = try PolicyEngine(source: PolicySource(text: """
            return { attributes = function(ctx) return ctx.customer.attributes end }
            """))
        let value = try engine.call("attributes", context: Self.context("ana", attributes: Self.nested), arguments: []).value
        let expected = LuaTable(hash: Dictionary(uniqueKeysWithValues: Self.nested.map { (LuaValue.string($0.key), $0.value) }))
        #expect(value == .table(expected))
    }

    @Test func aHookReadsDeepFieldsWithTheirLuaTypes() throws {
        let engine = try PolicyEngine(source: PolicySource(text: """
            return { describe = function(ctx)
                local a = ctx.customer.attributes
                return table.concat({ math.type(a.ratio), math.type(a.visits), tostring(a.opted_in), a.plan.tier,
                    math.type(a.plan.discount), tostring(a.plan.limits.daily * 2), tostring(a.plan.limits.weight * 2),
                    math.type(a.scores[1]), math.type(a.scores[2]), tostring(a.scores[3][1]), tostring(#a.scores) }, " ")
            end }
            """))
        let value = try engine.call("describe", context: Self.context("ana", attributes: Self.nested), arguments: []).value
        #expect(value == .string("float integer true gold float 6 5.0 float integer -0.5 3"))
    }

    @Test func alternatingCustomersOnOneStateSeeOnlyTheirOwnNestedValues() throws {
        let engine = try PolicyEngine(source: PolicySource(text: """
            return { limits = function(ctx)
                local plan = ctx.customer.attributes.plan
                if plan == nil or plan.limits == nil then return "none" end
                return tostring(plan.limits.weight)
            end }
            """), maximumIdleStates: 1)
        let ana = Self.context("ana", attributes: Self.nested)
        let ben = Self.context("ben", attributes: ["plan": .table(LuaTable(hash: [.string("tier"): .string("basic")]))])
        let cho = Self.context("cho", attributes: ["plan": .table(LuaTable(hash: [
            .string("limits"): .table(LuaTable(hash: [.string("weight"): .number(0.75)])),
        ]))])
        for _ in 0..<10 {
            #expect(try engine.call("limits", context: ana, arguments: []).value == .string("2.5"))
            #expect(try engine.call("limits", context: ben, arguments: []).value == .string("none"))
            #expect(try engine.call("limits", context: cho, arguments: []).value == .string("0.75"))
        }
    }
}
