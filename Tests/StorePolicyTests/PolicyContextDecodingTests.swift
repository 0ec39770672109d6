import Foundation
import Testing
@testable import StorePolicy

@Suite struct PolicyContextDecodingTests {
    @Test("a full context decodes, and {} is an anonymous customer at the defaults")
    func validContextsDecode() throws {
        let json = """
        {"now": 1700000000, "storefront": "FRA", "locale": "fr_FR", "environment": "sandbox",
         "customer": {"id": "ada", "seed": 7, "status_known": true, "entitlements": ["pass.premium"],
                      "subscriptions": {"PASS": {"product_id": "pass.premium", "group_level": 1, "state": "in_grace_period",
                                                 "will_auto_renew": false, "expiration_date": 1700086400, "intro_eligible": true}},
                      "balances": {"pellet": -3}, "attributes": {"cohort": "B", "scores": [1, 2.5, {"deep": null}]}}}
        """
        let context = try PolicyContext.decode(json: Data(json.utf8))
        #expect(context.now == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(context.environment == .sandbox)
        #expect(context.customer.subscriptions["PASS"]?.state == .inGracePeriod)
        #expect(context.customer.subscriptions["PASS"]?.expirationDate == Date(timeIntervalSince1970: 1_700_086_400))
        #expect(context.customer.balances == ["pellet": -3])
        #expect(context.customer.attributes["cohort"] == .string("B"))
        let empty = try PolicyContext.decode(json: Data("{}".utf8))
        #expect(empty.customer == CustomerContext())
        #expect(empty.storefront == "USA")
    }

    @Test("a fraction where a whole number belongs names the field and what it found")
    func fractionalBalance() {
        #expect(contextError(#"{"customer":{"balances":{"credit":1.5}}}"#)?.description
                == "customer.balances.credit: expected a whole number, found 1.5")
    }

    @Test("a value of the wrong kind names its path and what was expected")
    func wrongKinds() {
        #expect(contextError(#"{"customer":{"status_known":"yes"}}"#)?.description
                == "customer.status_known: expected true or false, found a string")
        #expect(contextError(#"{"customer":{"entitlements":["a", 3]}}"#)?.description
                == "customer.entitlements[1]: expected a string, found 3")
        #expect(contextError(#"{"storefront":null}"#) == nil)
        #expect(contextError(#"{"customer":{"subscriptions":{"PASS":{"state":"expired"}}}}"#)?.description
                == "customer.subscriptions.PASS: missing field 'product_id'")
        #expect(contextError(#"[]"#)?.description == "expected an object, found a list")
        #expect(contextError(#"{"customer":{"balances":{"two words":"x"}}}"#)?.description
                == #"customer.balances["two words"]: expected a whole number, found a string"#)
    }

    @Test("numbers too large for an integer, a date or a Double are refused, never trapped on")
    func hugeNumbers() {
        #expect(contextError(#"{"customer":{"balances":{"pellet":99999999999999999999}}}"#)?.description
                == "customer.balances.pellet: expected a whole number from -9223372036854775808 to 9223372036854775807, found 99999999999999999999")
        #expect(contextError(#"{"customer":{"seed":1e300}}"#)?.description.hasPrefix("customer.seed: expected a whole number from") == true)
        #expect(contextError(#"{"customer":{"seed":100}}"#)?.description == "customer.seed: expected a whole number from 0 to 99, found 100")
        #expect(contextError(#"{"now":1e300}"#)?.description.hasPrefix("now: expected epoch seconds from -62135596800 to 253402300799") == true)
        #expect(contextError(#"{"now":-1e18}"#)?.description.hasPrefix("now: expected epoch seconds") == true)
        #expect(contextError(#"{"now":1e400}"#)?.description == "now: the number 1e400 is out of range (at most ±1.7976931348623157e+308)")
        #expect(contextError(#"{"customer":{"attributes":{"x":[-1e999]}}}"#)?.description.hasPrefix("customer.attributes.x[0]: the number -1e999 is out of range") == true)
        #expect(contextError(#"{"now":NaN}"#)?.description == "not JSON: line 1, column 8: unexpected 'N'; expected a value")
        #expect(contextError(#"{"customer":{"subscriptions":{"P":{"product_id":"p","expiration_date":1e20}}}}"#)?.description
                .hasPrefix("customer.subscriptions.P.expiration_date: expected epoch seconds") == true)
        #expect(contextError(#"{"customer":{"subscriptions":{"P":{"product_id":"p","group_level":-1}}}}"#)?.description
                == "customer.subscriptions.P.group_level: expected a level of 0 or more, found -1")
    }

    @Test("whole numbers written with an exponent or a zero fraction are whole")
    func wholeNumbersInOtherForms() throws {
        let context = try PolicyContext.decode(json: Data(#"{"customer":{"balances":{"a":1e3,"b":2.0,"c":-0}}}"#.utf8))
        #expect(context.customer.balances == ["a": 1000, "b": 2, "c": 0])
    }

    @Test("the environment is read in any letter case, LocalTesting meaning xcode")
    func environmentSpellings() throws {
        for (spelling, environment) in [("Sandbox", PolicyContext.Environment.sandbox), ("SANDBOX", .sandbox), ("sandbox", .sandbox),
                                        ("Production", .production), ("Xcode", .xcode), ("LocalTesting", .xcode), ("local_testing", .xcode)] {
            let context = try PolicyContext.decode(json: Data(#"{"environment":"\#(spelling)"}"#.utf8))
            #expect(context.environment == environment, "\(spelling)")
        }
        #expect(contextError(#"{"environment":"staging"}"#)?.description
                == #"environment: unknown environment "staging"; use xcode, sandbox or production (any letter case; LocalTesting means xcode)"#)
    }

    @Test("JSONDecoder reads the environment in any letter case too")
    func environmentThroughFoundation() throws {
        let context = try JSONDecoder().decode(PolicyContext.self, from: Data(#"{"environment":"PRODUCTION"}"#.utf8))
        #expect(context.environment == .production)
    }

    @Test("an unknown field is refused at every level, with the nearest known name")
    func unknownFields() {
        #expect(contextError(#"{"custommer":{}}"#)?.description == "unknown field 'custommer' at the top level; did you mean 'customer'?")
        #expect(contextError(#"{"customer":{"balance":{}}}"#)?.description == "customer: unknown field 'balance'; did you mean 'balances'?")
        #expect(contextError(#"{"customer":{"subscriptions":{"PASS":{"product_id":"p","stat":"expired"}}}}"#)?.description
                == "customer.subscriptions.PASS: unknown field 'stat'; did you mean 'state'?")
        #expect(contextError(#"{"colour":"red"}"#)?.description
                == "unknown field 'colour' at the top level; known fields: now, storefront, locale, environment, customer, experiments")
        #expect(contextError(#"{"customer":{"attributes":{"anything":{"goes":1}}}}"#) == nil)
    }

    @Test("JSONDecoder refuses unknown fields too, with the same error")
    func unknownFieldsThroughFoundation() {
        #expect(throws: PolicyInputError.unknownField(path: "customer", field: "idd", known: ["id", "seed", "status_known", "entitlements", "subscriptions", "balances", "attributes", "events"])) {
            try JSONDecoder().decode(PolicyContext.self, from: Data(#"{"customer":{"idd":"x"}}"#.utf8))
        }
    }

    @Test("a hook request decodes with its context and refuses an unknown field")
    func hookRequests() throws {
        let request = try HookRequest.decode(json: Data(#"{"hook":"features","ctx":{"customer":{"id":"ada"}},"args":[1]}"#.utf8))
        #expect(request.hook == "features")
        #expect(request.context.customer.id == "ada")
        #expect(request.arguments == [.integer(1)])
        #expect(throws: PolicyInputError.unknownField(path: "", field: "arg", known: ["hook", "ctx", "args"])) {
            try HookRequest.decode(json: Data(#"{"hook":"features","arg":[]}"#.utf8))
        }
        #expect(throws: PolicyInputError.invalidValue(path: "ctx.customer.seed", reason: "expected a whole number, found 0.5")) {
            try HookRequest.decode(json: Data(#"{"hook":"features","ctx":{"customer":{"seed":0.5}}}"#.utf8))
        }
    }
}
