import Foundation
import LuaBridge
import StoreCore
import Testing
@testable import StorePolicy

/// The `retention_message` hook: what a subscriber about to cancel is shown. No hook, or nil,
/// is Apple's default message; an answer is held to the catalog, each broken rule naming the
/// hook, its line and the value; a failing hook falls back to Apple's default.
@Suite struct RetentionMessageHookTests {
    static let messageID = "6B4D1F2A-93C0-4E5B-8A71-0C2D3E4F5A6B"

    /// Two plans of one group, the first with a promotional offer, and a plan of another group.
    static let catalog: PolicyCatalog = {
        let month = PolicyProduct.Period(unit: "month", value: 1)
        let stay = PolicyProduct.Offer(id: "premium.stay", type: "promotional", paymentMode: "pay_as_you_go", price: "2.99",
                                       displayPrice: "$2.99", period: month, periodCount: 2)
        func plan(_ id: String, group: String, level: Int, offers: [PolicyProduct.Offer] = []) -> PolicyProduct {
            PolicyProduct(id: id, type: "auto_renewable", displayName: id, description: "", price: "4.99", displayPrice: "$4.99",
                          isFamilyShareable: false,
                          subscription: .init(groupId: group, groupName: group, groupLevel: level, period: month,
                                              introductoryOffer: nil, promotionalOffers: offers))
        }
        let plans = [plan("pass.premium", group: "PASS", level: 1, offers: [stay]), plan("pass.individual", group: "PASS", level: 2),
                     plan("seeds.monthly", group: "SEEDS", level: 1)]
        return PolicyCatalog(products: Dictionary(uniqueKeysWithValues: plans.map { ($0.id, $0) }),
                             groups: ["PASS": .init(id: "PASS", name: "PASS", products: ["pass.premium", "pass.individual"]),
                                      "SEEDS": .init(id: "SEEDS", name: "SEEDS", products: ["seeds.monthly"])])
    }()

    static let request = RetentionRequest(originalTransactionID: "2000000000000001", productID: "pass.premium", locale: "fr_FR",
                                          requestID: "r-1", environment: "Sandbox", signedAt: Date(timeIntervalSince1970: 1_750_000_000))

    /// The decision of a policy whose hook, on line 2 of `policy.lua`, returns `answer` (Lua).
    static func decide(returning answer: String) throws -> Decision<RetentionMessage?> {
        try engine("""
            return {
                retention_message = function(ctx, request) return \(answer) end,
            }
            """).retentionMessage(subscriber("pass.premium", level: 1), request: request)
    }

    static func engine(_ text: String) throws -> PolicyEngine {
        try PolicyEngine(source: PolicySource(text: text), catalog: catalog,
                         limits: .init(instructionBudget: 5_000_000, deadline: .seconds(2), memoryLimit: 16 << 20))
    }

    @Test func withoutTheHookApplesDefaultMessageIsShown() throws {
        let decision = try Self.engine("return {}").retentionMessage(subscriber("pass.premium", level: 1), request: Self.request)
        #expect(decision.source == .defaultForMissingHook)
        #expect(decision.value == nil)
    }

    @Test func nilIsApplesDefaultMessageByThePolicysChoice() throws {
        let decision = try Self.decide(returning: "nil")
        #expect(decision.source == .policy)
        #expect(decision.value == nil)
    }

    @Test func aMessageAloneOrWithAnotherPlanOrAnOfferIsThePolicysAnswer() throws {
        let alone = try Self.decide(returning: #"{ message = "\#(Self.messageID)" }"#)
        #expect(alone.source == .policy)
        #expect(alone.value == RetentionMessage(messageID: Self.messageID.lowercased()))
        let downgrade = try Self.decide(returning: #"{ message = "\#(Self.messageID)", alternate_product = "pass.individual" }"#)
        #expect(downgrade.value == RetentionMessage(messageID: Self.messageID.lowercased(), offer: .alternateProduct("pass.individual")))
        let offer = try Self.decide(returning: #"{ message = "\#(Self.messageID)", promotional_offer = "premium.stay" }"#)
        #expect(offer.value == RetentionMessage(messageID: Self.messageID.lowercased(), offer: .promotionalOffer("premium.stay")))
    }

    @Test func theHookSeesTheRequestAndTheSubscriber() throws {
        let engine = try Self.engine("""
            return { retention_message = function(ctx, request)
                if request.product_id ~= "pass.premium" or request.original_transaction_id ~= "2000000000000001"
                    or request.locale ~= "fr_FR" or request.request_id ~= "r-1" or request.environment ~= "Sandbox"
                    or request.signed_at ~= 1750000000 or ctx.customer.subscriptions.PASS.product_id ~= "pass.premium" then
                    error("unexpected arguments")
                end
                return { message = "\(Self.messageID)" }
            end }
            """)
        let decision = engine.retentionMessage(subscriber("pass.premium", level: 1), request: Self.request)
        #expect(decision.value?.messageID == Self.messageID.lowercased(), "\(String(describing: decision.failure))")
    }

    @Test(arguments: [
        (#"{ message = "not-a-uuid" }"#, #"message: "not-a-uuid" is not a UUID"#),
        (#"{ message = 42 }"#, "message: expected a message identifier (a UUID), got 42"),
        (#"{ alternate_product = "pass.individual" }"#, "message: missing"),
        (#"{ message = "\#(messageID)", alternate_product = "pass.gold" }"#, "alternate_product: no subscription 'pass.gold' in the catalog"),
        (#"{ message = "\#(messageID)", alternate_product = "pass.premium" }"#, "alternate_product: 'pass.premium' is the plan the customer has now"),
        (#"{ message = "\#(messageID)", alternate_product = "seeds.monthly" }"#, "alternate_product: 'seeds.monthly' is not in the group of 'pass.premium' (PASS)"),
        (#"{ message = "\#(messageID)", promotional_offer = "premium.gone" }"#, "promotional_offer: 'premium.gone' is not an offer of 'pass.premium'; it has premium.stay"),
        (#"{ message = "\#(messageID)", alternate_product = "pass.individual", promotional_offer = "premium.stay" }"#, "not both"),
        (#"{ message = "\#(messageID)", promotional_ofer = "premium.stay" }"#, "unknown field 'promotional_ofer'; did you mean 'promotional_offer'?"),
        (#""\#(messageID)""#, #"got "\#(messageID)""#),
    ])
    func anAnswerTheCatalogRefusesIsTheHooksFailureNamingItsLineAndValue(answer: String, named: String) throws {
        let decision = try Self.decide(returning: answer)
        #expect(decision.value == nil, "Apple's default message instead")
        let failure = try #require(decision.failure)
        #expect(failure.description.hasPrefix("retention_message (policy.lua:2): bad result: "), "\(failure)")
        #expect(failure.description.contains(named), "\(failure)")
    }

    @Test func aHookThatFailsFallsBackToApplesDefaultMessage() throws {
        let decision = try Self.engine("""
            return {
                retention_message = function(ctx, request)
                    return { message = ctx.customer.subscriptions.PASS.missing_field }
                end,
            }
            """).retentionMessage(subscriber("pass.premium", level: 1), request: Self.request)
        #expect(decision.value == nil)
        guard case .fallback(let failure) = decision.source else {
            Issue.record("expected a fallback, got \(decision.source.name)")
            return
        }
        #expect(failure.description.hasPrefix("retention_message (policy.lua:3): "), "\(failure)")
        #expect(failure.description.contains("missing_field"), "\(failure)")
    }
}
