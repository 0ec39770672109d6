import Foundation
import StoreCore
import StorePolicy
import Testing

@Suite struct ExperimentContextTests {
    static let declaration = """
        { annual_first = { variants = { control = 50, annual = 50 } },
          icons = { variants = { control = 1, bird = 1 }, audience = function(ctx) return ctx.storefront == "USA" end },
          later = { variants = { control = 1, b = 1 }, starts = "2999-01-01" },
          nobody = { variants = { control = 1, b = 1 }, traffic = 0 } }
        """

    static func engine(_ hooks: String) throws -> PolicyEngine {
        try ExperimentDeclarationTests.engine(declaration, hooks: hooks)
    }

    static func customer(_ id: String, storefront: String = "USA", exposures: [String: [String: String]] = [:],
                         pins: [String: ExperimentPin] = [:]) -> PolicyContext {
        var customer = CustomerContext(id: id, statusKnown: true)
        customer.exposures = exposures
        return PolicyContext(now: Date(timeIntervalSince1970: 1_800_000_000), storefront: storefront, customer: customer, experiments: pins)
    }

    static let reader = "function policy.variant(ctx, name) return ctx.experiments[name] end"

    @Test func aHookReadsTheAssignedVariantAndTheDecisionCarriesItsFirstExposure() throws {
        let engine = try Self.engine(Self.reader)
        let declaration = try #require(engine.experiments["annual_first"])
        let context = Self.customer("ana")
        let decision = try engine.call("variant", context: context, arguments: [.value(.string("annual_first"))])
        let expected = try #require(declaration.assignedVariant(customerID: "ana"))
        #expect(decision.value == .string(expected))
        #expect(decision.exposures == [ExperimentExposure(
            customerID: "ana", experiment: "annual_first", phase: declaration.phase, variant: expected,
            exposedDate: context.now, policyVersion: engine.version, hook: "variant", placement: nil)])
    }

    @Test func theVariantTheLedgerRecordedWinsAndRecordsNothingMore() throws {
        let engine = try Self.engine(Self.reader)
        let declaration = try #require(engine.experiments["annual_first"])
        let assigned = try #require(declaration.assignedVariant(customerID: "ana"))
        let other = assigned == "control" ? "annual" : "control"
        let context = Self.customer("ana", exposures: ["annual_first": [declaration.phase: other, "oldphase0000": assigned]])
        let decision = try engine.call("variant", context: context, arguments: [.value(.string("annual_first"))])
        #expect(decision.value == .string(other) && decision.exposures.isEmpty)
    }

    @Test func anExposureOfAnotherPhaseDoesNotCount() throws {
        let engine = try Self.engine(Self.reader)
        let declaration = try #require(engine.experiments["annual_first"])
        let context = Self.customer("ana", exposures: ["annual_first": ["oldphase0000": "whatever"]])
        let decision = try engine.call("variant", context: context, arguments: [.value(.string("annual_first"))])
        #expect(decision.value == .string(try #require(declaration.assignedVariant(customerID: "ana"))))
        #expect(decision.exposures.count == 1)
    }

    @Test(arguments: [
        ("", "annual_first", "USA"),        // anonymous
        ("ana", "later", "USA"),            // before the window
        ("ana", "nobody", "USA"),           // outside the traffic
        ("ana", "icons", "FRA"),            // outside the audience
    ])
    func outsideTheExperimentAHookReadsNilAndNothingIsRecorded(id: String, name: String, storefront: String) throws {
        let engine = try Self.engine(Self.reader)
        let decision = try engine.call("variant", context: Self.customer(id, storefront: storefront), arguments: [.value(.string(name))])
        #expect(decision.value == .nil && decision.exposures.isEmpty)
    }

    @Test func inTheAudienceTheCustomerIsAssigned() throws {
        let engine = try Self.engine(Self.reader)
        let decision = try engine.call("variant", context: Self.customer("ana"), arguments: [.value(.string("icons"))])
        #expect(decision.value != .nil && decision.exposures.map(\.experiment) == ["icons"])
    }

    @Test func aPinnedVariantIsReadAsGivenAndRecordsNothing() throws {
        let engine = try Self.engine(Self.reader)
        for pin in ["control", "annual"] {
            let decision = try engine.call("variant", context: Self.customer("ana", pins: ["annual_first": .variant(pin)]),
                                           arguments: [.value(.string("annual_first"))])
            #expect(decision.value == .string(pin) && decision.exposures.isEmpty)
        }
        let outside = try engine.call("variant", context: Self.customer("ana", pins: ["annual_first": .outside]),
                                      arguments: [.value(.string("annual_first"))])
        #expect(outside.value == .nil && outside.exposures.isEmpty)
    }

    @Test func anUnknownExperimentIsAStrictErrorNamingTheNearest() throws {
        let engine = try Self.engine(Self.reader)
        let error = #expect(throws: PolicyError.self) {
            try engine.call("variant", context: Self.customer("ana"), arguments: [.value(.string("anual_first"))])
        }
        #expect(error?.reason.contains("ctx.experiments has no experiment 'anual_first' (did you mean 'annual_first'?)") == true)
        #expect(error?.line == 6, "the line of the hook that read it")
    }

    @Test func aPinToAnUnknownVariantOrExperimentIsAnError() throws {
        let engine = try Self.engine(Self.reader)
        let badVariant = #expect(throws: PolicyError.self) {
            try engine.call("variant", context: Self.customer("ana", pins: ["annual_first": .variant("anual")]),
                            arguments: [.value(.string("annual_first"))])
        }
        #expect(badVariant?.reason.contains("pins annual_first to 'anual', which is not one of its variants (annual, control) (did you mean 'annual'?)") == true)
        let badName = #expect(throws: PolicyError.self) {
            try engine.call("variant", context: Self.customer("ana", pins: ["anual_first": .variant("annual")]),
                            arguments: [.value(.string("annual_first"))])
        }
        #expect(badName?.reason.contains("pins the experiment 'anual_first', which the policy does not declare (did you mean 'annual_first'?)") == true)
    }

    @Test func ctxExperimentsIsReadOnlyAndCannotBeWalked() throws {
        let engine = try Self.engine("""
            function policy.write(ctx) ctx.experiments.annual_first = "annual" end
            function policy.walk(ctx) for k in pairs(ctx.experiments) do end end
            """)
        let write = #expect(throws: PolicyError.self) { try engine.call("write", context: Self.customer("ana"), arguments: []) }
        #expect(write?.reason.contains("attempt to modify read-only table 'ctx.experiments'") == true)
        let walk = #expect(throws: PolicyError.self) { try engine.call("walk", context: Self.customer("ana"), arguments: []) }
        #expect(walk?.reason.contains("ctx.experiments cannot be walked") == true)
    }

    @Test func aStorefrontPlanRecordsEachExperimentOnceWithItsPlacement() throws {
        let engine = try Self.engine("""
            function policy.show_merchandising(ctx, placement) return ctx.experiments.annual_first ~= nil end
            function policy.store_buttons(ctx, view)
                local a, b = ctx.experiments.annual_first, ctx.experiments.icons
                return {}
            end
            """)
        let plan = engine.storefrontPlan(Self.customer("ana"), placement: "home")
        #expect(plan.exposures.map(\.experiment).sorted() == ["annual_first", "icons"])
        #expect(plan.exposures.allSatisfy { $0.placement == "home" && $0.customerID == "ana" })
        #expect(plan.exposures.first { $0.experiment == "annual_first" }?.hook == "show_merchandising")
        // The next plan for the same customer on the same state starts afresh.
        let next = engine.storefrontPlan(Self.customer("ben"), placement: "store")
        #expect(next.exposures.allSatisfy { $0.customerID == "ben" } && next.exposures.count == 2)
    }

    @Test func theAudienceRunsOncePerContextAndSeesTheSameCtx() throws {
        let engine = try ExperimentDeclarationTests.engine("""
            { a = { variants = { control = 1, b = 1 }, audience = function(ctx) return ctx.customer.id == "ana" end } }
            """, hooks: "function policy.twice(ctx) return tostring(ctx.experiments.a) .. '/' .. tostring(ctx.experiments.a) end")
        let ana = try engine.call("twice", context: Self.customer("ana"), arguments: [])
        let ben = try engine.call("twice", context: Self.customer("ben"), arguments: [])
        #expect(ana.exposures.count == 1 && ben.value == .string("nil/nil") && ben.exposures.isEmpty)
    }

    @Test func anAudienceReadingItsOwnExperimentIsAnErrorNotARecursion() throws {
        let engine = try ExperimentDeclarationTests.engine("""
            { a = { variants = { control = 1, b = 1 }, audience = function(ctx) return ctx.experiments.a ~= nil end } }
            """, hooks: Self.reader)
        let error = #expect(throws: PolicyError.self) {
            try engine.call("variant", context: Self.customer("ana"), arguments: [.value(.string("a"))])
        }
        #expect(error?.reason.contains("the audience of the experiment 'a' reads ctx.experiments.a") == true)
    }

    @Test func evalInputPinsAVariantInJSON() throws {
        let context = try PolicyContext.decode(json: Data(#"{"experiments": {"annual_first": "annual", "icons": false}}"#.utf8))
        #expect(context.experiments == ["annual_first": .variant("annual"), "icons": .outside])
        #expect(throws: PolicyInputError.self) { try PolicyContext.decode(json: Data(#"{"experiments": {"a": true}}"#.utf8)) }
        #expect(throws: PolicyInputError.self) { try PolicyContext.decode(json: Data(#"{"experiments": {"a": 3}}"#.utf8)) }
    }
}
