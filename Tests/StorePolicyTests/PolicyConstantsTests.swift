import LuaBridge
import Testing
@testable import StorePolicy

@Suite struct PolicyConstantsTests {
    @Test func stringsInEveryQuoteFormAndConstructorKeysAreFoundButNotComments() {
        let source = #"""
        -- "GBR" in a comment is no constant, nor --[[ "DEU" ]] this
        --[==[ 'ESP'
        ]==]
        local EU = { FRA = true, ["ITA"] = true }
        local a, b, c = "double", 'single', [[long]]
        local d = [=[level "one"]=]
        return { a = "esc\"aped", b = 'x\65' }
        """#
        let constants = PolicyConstants(oldSource: "", newSource: source, tests: [])
        #expect(constants.strings == ["FRA", "ITA", "double", "single", "long", "level \"one\"", "a", "esc\"aped", "b", "xA"])
    }

    @Test func numbersComeWithTheirNeighboursAndTheirSignThoseOfOnePolicyFirst() {
        let constants = PolicyConstants(oldSource: "return x >= 3 and y < 7", newSource: "return x - 1 >= 3 and z > -2.5 and y < 0x10", tests: [])
        #expect(constants.numbers == [
            .integer(6), .integer(7), .integer(8), .integer(0), .integer(1), .integer(2), .number(-3.5), .number(-2.5), .number(-1.5),
            .integer(15), .integer(16), .integer(17), .integer(3), .integer(4),
        ], "7, 1, -2.5 and 16 are in one policy only; 3 in both comes last; 2 only once")
    }

    @Test func attributeAndEventNamesAreFoundHoweverTheyAreRead() {
        let policy = """
        local CAP = "offer_dismissed"
        local function capped(ctx)
            local events = ctx.customer.events
            return events.paywall_shown ~= nil or events[CAP] ~= nil or ctx.customer.events["trial_started"] ~= nil
        end
        return { show_merchandising = function(ctx) return ctx.customer.attributes.tier == "gold" end }
        """
        let test = """
        local c = context{ customer = { attributes = { cohort = "B", ["beta-tester"] = true }, events = { app_opened = { recent = { NOW } } } } }
        """
        let constants = PolicyConstants(oldSource: "return {}", newSource: policy, tests: [test])
        #expect(constants.eventNames == ["paywall_shown", "offer_dismissed", "trial_started", "app_opened"])
        #expect(constants.attributeNames == ["tier", "cohort", "beta-tester"])
    }

    @Test func constantsOnlyOnePolicyWritesComeFirst() {
        let old = #"local PASS = "6F3A93AB"; return { plan_icon = function(ctx, plan) return "bird" end }"#
        let new = #"local PASS = "6F3A93AB"; return { plan_icon = function(ctx, plan) return "bird.fill" end }"#
        let constants = PolicyConstants(oldSource: old, newSource: new, tests: [#"expect_eq("bird", x)"#])
        #expect(constants.strings == ["bird", "bird.fill", "6F3A93AB", "plan_icon"])
    }
}
