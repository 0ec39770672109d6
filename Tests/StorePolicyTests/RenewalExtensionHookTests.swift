import Foundation
import LuaBridge
import StoreCore
import Testing
@testable import StorePolicy

/// The `renewal_extension` hook: the days a subscriber is given for an incident. No hook, or
/// nil, extends nobody; an answer Apple would refuse names the hook, its line and the value; a
/// failing hook extends nobody rather than guess.
@Suite struct RenewalExtensionHookTests {
    static let subscription = RenewalSubscription(originalTransactionID: "2000000000000001", productID: "pass.premium", groupID: "PASS",
                                                  expiresDate: Date(timeIntervalSince1970: 1_750_086_400), storefront: "FRA")
    static let incident = Incident(start: Date(timeIntervalSince1970: 1_749_990_000), end: Date(timeIntervalSince1970: 1_750_000_000),
                                   reason: "feeder cams down", products: ["pass.premium"], storefronts: ["FRA"])

    /// The decision of a policy whose hook, on line 2 of `policy.lua`, returns `answer` (Lua).
    static func decide(returning answer: String) throws -> Decision<RenewalExtension?> {
        try makeEngine("""
            return {
                renewal_extension = function(ctx, subscription, incident) return \(answer) end,
            }
            """).renewalExtension(subscriber("pass.premium", level: 1), subscription: subscription, incident: incident)
    }

    @Test func withoutTheHookNobodyIsExtended() throws {
        let decision = try makeEngine("return {}").renewalExtension(subscriber("pass.premium", level: 1), subscription: Self.subscription,
                                                                    incident: Self.incident)
        #expect(decision.source == .defaultForMissingHook)
        #expect(decision.value == nil)
    }

    @Test func nilExtendsNobodyByThePolicysChoice() throws {
        let decision = try Self.decide(returning: "nil")
        #expect(decision.source == .policy)
        #expect(decision.value == nil)
    }

    @Test(arguments: [
        ("{ days = 3, reason = 3 }", RenewalExtension(days: 3, reason: .serviceIssueOrOutage)),
        (#"{ days = 90, reason = "customer_satisfaction" }"#, RenewalExtension(days: 90, reason: .customerSatisfaction)),
        (#"{ days = 1.0, reason = "UNDECLARED" }"#, RenewalExtension(days: 1, reason: .undeclared)),
    ])
    func daysAndAReasonByCodeOrWordAreThePolicysAnswer(answer: String, expected: RenewalExtension) throws {
        let decision = try Self.decide(returning: answer)
        #expect(decision.source == .policy, "\(String(describing: decision.failure))")
        #expect(decision.value == expected)
    }

    @Test func theHookSeesTheSubscriptionAndTheIncident() throws {
        let engine = try makeEngine("""
            return { renewal_extension = function(ctx, subscription, incident)
                if subscription.product_id ~= "pass.premium" or subscription.group_id ~= "PASS" or subscription.storefront ~= "FRA"
                    or subscription.original_transaction_id ~= "2000000000000001" or incident.reason ~= "feeder cams down"
                    or incident.products[1] ~= "pass.premium" or incident.storefronts[1] ~= "FRA" then
                    error("unexpected arguments")
                end
                return { days = math.ceil((incident["end"] - incident.start) / 86400), reason = "SERVICE_ISSUE_OR_OUTAGE" }
            end }
            """)
        let decision = engine.renewalExtension(subscriber("pass.premium", level: 1), subscription: Self.subscription, incident: Self.incident)
        #expect(decision.value == RenewalExtension(days: 1, reason: .serviceIssueOrOutage), "\(String(describing: decision.failure))")
    }

    @Test(arguments: [
        ("{ days = 0, reason = 3 }", "days: 0 is outside 1–90"),
        ("{ days = 91, reason = 3 }", "days: 91 is outside 1–90"),
        ("{ days = 2.5, reason = 3 }", "days: expected an integer, got 2.5"),
        ("{ reason = 3 }", "days: missing"),
        ("{ days = 3, reason = 7 }", "reason: 7 is not one of 0 or \"UNDECLARED\""),
        (#"{ days = 3, reason = "OUTAGE" }"#, "reason: \"OUTAGE\" is not one of"),
        ("{ days = 3 }", "reason: missing"),
        ("{ days = 3, reason = 3, note = 'x' }", "unknown field 'note'"),
        ("3", "expected a table { days = 1…90, reason = 0…3 or Apple's word } or nil, got 3"),
    ])
    func anAnswerAppleWouldRefuseIsTheHooksFailureNamingItsLineAndValue(answer: String, named: String) throws {
        let decision = try Self.decide(returning: answer)
        #expect(decision.value == nil, "nobody is extended by a guess")
        let failure = try #require(decision.failure)
        #expect(failure.description.hasPrefix("renewal_extension (policy.lua:2): bad result: "), "\(failure)")
        #expect(failure.description.contains(named), "\(failure)")
    }

    @Test func aHookThatFailsExtendsNobody() throws {
        let decision = try makeEngine("""
            return {
                renewal_extension = function(ctx, subscription, incident)
                    return { days = incident.duration_days * 1, reason = 3 }
                end,
            }
            """).renewalExtension(subscriber("pass.premium", level: 1), subscription: Self.subscription, incident: Self.incident)
        #expect(decision.value == nil)
        guard case .fallback(let failure) = decision.source else {
            Issue.record("expected a fallback, got \(decision.source.name)")
            return
        }
        #expect(failure.description.hasPrefix("renewal_extension (policy.lua:3): error: "), "\(failure)")
        #expect(failure.description.contains("duration_days"), "\(failure)")
    }
}
