import Foundation
import StoreCore
import StorePolicy
import Testing

@Suite struct ExperimentDeclarationTests {
    static func engine(_ experiments: String, hooks: String = "") throws(PolicyError) -> PolicyEngine {
        try PolicyEngine(source: PolicySource(text: """
            local policy = {}
            policy.experiments = \(experiments)
            \(hooks)
            return policy
            """, chunkName: "policy.lua"))
    }

    static func refusal(_ experiments: String) -> String {
        do {
            _ = try engine(experiments)
            return "loaded"
        } catch {
            #expect(error.kind == .invalidPolicy)
            return error.reason
        }
    }

    @Test func aDeclarationLoadsWithItsVariantsTrafficWindowAndPhase() throws {
        let engine = try Self.engine("""
            { annual_first = { variants = { control = 50, annual = 50 }, traffic = 80,
                               audience = function(ctx) return true end, starts = "2026-12-10", ends = "2027-01-10T12:00:00Z" } }
            """)
        let declaration = try #require(engine.experiments["annual_first"])
        #expect(declaration.variants == [ExperimentVariantWeight(name: "annual", weight: 50), ExperimentVariantWeight(name: "control", weight: 50)])
        #expect(declaration.traffic == 80 && declaration.hasAudience && declaration.salt == "annual_first")
        #expect(declaration.starts.map { ISO8601DateFormatter().string(from: $0) } == "2026-12-10T00:00:00Z")
        #expect(declaration.ends.map { ISO8601DateFormatter().string(from: $0) } == "2027-01-10T12:00:00Z")
        #expect(declaration.phase.count == 12 && declaration.phase.allSatisfy(\.isHexDigit))
    }

    @Test func aPolicyWithoutExperimentsDeclaresNone() throws {
        #expect(try PolicyEngine(source: PolicySource(text: "return {}")).experiments.isEmpty)
    }

    @Test(arguments: [
        ("42", "policy.experiments: expected a table of experiments by name, found number"),
        ("{ a = { variants = { control = 1, b = -1 } } }", "policy.experiments.a.variants.b: expected a whole number from 0 to 1000000, found -1"),
        ("{ a = { variants = { control = 1, b = 1.5 } } }", "policy.experiments.a.variants.b: expected a whole number from 0 to 1000000, found 1.5"),
        ("{ a = { variants = { control = 1 } } }", "policy.experiments.a.variants: expected at least two variants, found 1"),
        ("{ a = { variants = { controll = 1, b = 1 } } }", "policy.experiments.a.variants: expected a variant named control, which the others are compared with (is 'controll' meant to be control?), found b, controll"),
        ("{ a = { variants = { control = 0, b = 0 } } }", "policy.experiments.a.variants: expected at least one weight above 0, found only weights of 0"),
        ("{ a = { variants = { control = 1, b = 1 }, traffic = 101 } }", "policy.experiments.a.traffic: expected a whole number from 0 to 100, found 101"),
        ("{ a = { variants = { control = 1, b = 1 }, trafic = 50 } }", "policy.experiments.a.trafic: expected one of variants, traffic, audience, starts, ends, salt (did you mean 'traffic'?), found an unknown field"),
        ("{ a = { variants = { control = 1, b = 1 }, audience = true } }", "policy.experiments.a.audience: expected a function(ctx) returning whether the customer takes part, found boolean"),
        ("{ a = { variants = { control = 1, b = 1 }, starts = \"next week\" } }", "policy.experiments.a.starts: expected a UTC date (2026-12-10) or an RFC 3339 time (2026-12-10T09:00:00Z), found 'next week'"),
        ("{ a = { variants = { control = 1, b = 1 }, starts = \"2026-12-10\", ends = \"2026-12-01\" } }", "policy.experiments.a.ends: expected a time after starts, found 2026-12-01T00:00:00Z"),
        ("{ [\"two words\"] = { variants = { control = 1, b = 1 } } }", "policy.experiments.two words: expected a name of letters, digits and _ (not first a digit), at most 64 long, found 'two words'"),
        ("{ a = { } }", "policy.experiments.a.variants: expected a table of variant names to integer weights, one named control, found nil"),
        ("{ a = \"yes\" }", "policy.experiments.a: expected a table with variants, found string"),
        ("{ a = { variants = { control = 1, b = 1 }, salt = \"x\\nb=1\" } }", "policy.experiments.a.salt: expected a string of 1 to 100 bytes without control characters, found 'x\nb=1'"),
        ("(function() local v = { control = 1 } for i = 1, 20 do v['v' .. i] = 1 end return { a = { variants = v } } end)()",
         "policy.experiments.a.variants: expected at most 20 variants, found more"),
        ("(function() local e = {} for i = 1, 101 do e['e' .. i] = { variants = { control = 1, b = 1 } } end return e end)()",
         "policy.experiments: expected at most 100 experiments, found more"),
    ])
    func aBadDeclarationRefusesThePolicyWithThePathOfTheBadValue(declaration: String, reason: String) {
        #expect(Self.refusal(declaration) == reason)
    }

    @Test func aReloadWithABadDeclarationKeepsTheOldPolicyServing() throws {
        let engine = try Self.engine("{ a = { variants = { control = 1, b = 1 } } }")
        let version = engine.version
        #expect(throws: PolicyError.self) {
            try engine.reload(PolicySource(text: "return { experiments = { a = { variants = { b = 1 } } } }"))
        }
        #expect(engine.version == version && engine.experiments["a"] != nil)
    }

    @Test func changingVariantsWeightsOrSaltStartsANewPhaseButTrafficAndWindowDoNot() {
        let base = ExperimentDeclaration(name: "a", variants: [.init(name: "control", weight: 50), .init(name: "b", weight: 50)])
        let reweighted = ExperimentDeclaration(name: "a", variants: [.init(name: "control", weight: 40), .init(name: "b", weight: 60)])
        let renamed = ExperimentDeclaration(name: "a", variants: [.init(name: "control", weight: 50), .init(name: "c", weight: 50)])
        let salted = ExperimentDeclaration(name: "a", variants: base.variants, salt: "second run")
        let narrowed = ExperimentDeclaration(name: "a", variants: base.variants, traffic: 10, hasAudience: true, starts: Date())
        #expect(Set([base.phase, reweighted.phase, renamed.phase, salted.phase]).count == 4)
        #expect(narrowed.phase == base.phase)
    }

    @Test func assignmentFollowsTheWeightsAndSplitsIndependentlyOfOtherExperiments() {
        let first = ExperimentDeclaration(name: "annual_first", variants: [.init(name: "control", weight: 25), .init(name: "annual", weight: 75)])
        let second = ExperimentDeclaration(name: "icon_test", variants: [.init(name: "control", weight: 50), .init(name: "bird", weight: 50)])
        let ids = (0..<20_000).map { "customer-\($0)" }
        let annual = ids.filter { first.assignedVariant(customerID: $0) == "annual" }
        // 75 % ± 4 standard deviations (σ ≈ 0.31 % at 20,000).
        #expect(abs(Double(annual.count) / 20_000 - 0.75) < 0.0125)
        // Independent: among the annual customers, icon_test still splits half and half.
        let birdsAmongAnnual = annual.filter { second.assignedVariant(customerID: $0) == "bird" }.count
        #expect(abs(Double(birdsAmongAnnual) / Double(annual.count) - 0.5) < 0.0165)
        // Not the shared seed: the seed's halves do not predict the variant.
        let lowSeed = ids.filter { CustomerContext.seed(for: $0) < 50 }
        let birdsAmongLowSeed = lowSeed.filter { second.assignedVariant(customerID: $0) == "bird" }.count
        #expect(abs(Double(birdsAmongLowSeed) / Double(lowSeed.count) - 0.5) < 0.02)
    }

    @Test func aNewPhaseReassignsButTheSamePhaseAlwaysGivesTheSameVariant() {
        let variants: [ExperimentVariantWeight] = [.init(name: "control", weight: 50), .init(name: "b", weight: 50)]
        let one = ExperimentDeclaration(name: "a", variants: variants)
        let again = ExperimentDeclaration(name: "a", variants: variants.reversed())
        let next = ExperimentDeclaration(name: "a", variants: variants, salt: "next")
        let ids = (0..<2_000).map { "c\($0)" }
        #expect(ids.allSatisfy { one.assignedVariant(customerID: $0) == again.assignedVariant(customerID: $0) })
        let moved = ids.filter { one.assignedVariant(customerID: $0) != next.assignedVariant(customerID: $0) }.count
        #expect((800...1_200).contains(moved))
        #expect(one.assignedVariant(customerID: "") == nil)
    }

    @Test func raisingTrafficKeepsEveryoneAlreadyIn() {
        let variants: [ExperimentVariantWeight] = [.init(name: "control", weight: 1), .init(name: "b", weight: 1)]
        let ten = ExperimentDeclaration(name: "a", variants: variants, traffic: 10)
        let fifty = ExperimentDeclaration(name: "a", variants: variants, traffic: 50)
        let ids = (0..<10_000).map { "c\($0)" }
        let inTen = ids.filter { ten.includesInTraffic(customerID: $0) }
        #expect(abs(Double(inTen.count) / 10_000 - 0.10) < 0.012)
        #expect(inTen.allSatisfy { fifty.includesInTraffic(customerID: $0) })
    }
}
