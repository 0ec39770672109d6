import Foundation
import LuaBridge
import StoreCore
import Testing
@testable import StorePolicy

/// The `consumption` hook: its answer held to Apple's rules, each broken rule named by its
/// field; nil and a missing hook send nothing; a failing hook is a fallback, never a guess.
@Suite struct ConsumptionHookTests {
    static let request = RefundRequest(reason: "UNSATISFIED_WITH_PURCHASE", notificationUUID: "n-1",
                                       requestedAt: Date(timeIntervalSince1970: 1_700_000_000),
                                       deadline: Date(timeIntervalSince1970: 1_700_043_200))

    /// A purchase the ledger granted.
    static let delivered = TransactionDelivery(grantState: .granted, grantedDate: Date(timeIntervalSince1970: 1_699_000_000))

    static func transaction(type: TransactionProductType = .consumable) -> JWSTransactionDecodedPayload {
        var transaction = JWSTransactionDecodedPayload()
        transaction.transactionId = "2000000000000001"
        transaction.productId = "pellets.box"
        transaction.quantity = 2
        transaction.type = type
        return transaction
    }

    /// The answer of a policy whose hook returns `answer` (Lua).
    static func decide(returning answer: String, type: TransactionProductType = .consumable) throws -> Decision<ConsumptionAnswer?> {
        let engine = try makeEngine("return { consumption = function(ctx, tx, request) return \(answer) end }")
        return engine.consumption(newCustomer, transaction: transaction(type: type), delivery: delivered, request: request)
    }

    @Test func aValidAnswerIsAppleBody() throws {
        let decision = try Self.decide(returning: """
            { customer_consented = true, delivery_status = "DELIVERED", consumption_percentage = 40000,
              refund_preference = "GRANT_PRORATED", sample_content_provided = false }
            """)
        #expect(decision.source == .policy)
        let answer = try #require(decision.value)
        #expect(answer.deliveryStatus == .delivered)
        #expect(answer.consumptionPercentage == 40_000)
        #expect(answer.refundPreference == .grantProrated)
        let json = try #require(LedgerRecords.text(of: answer))
        #expect(json == #"{"consumptionPercentage":40000,"customerConsented":true,"deliveryStatus":"DELIVERED","refundPreference":"GRANT_PRORATED","sampleContentProvided":false}"#)
    }

    @Test func theHookSeesTheTransactionAndTheRequest() throws {
        let engine = try makeEngine("""
            return { consumption = function(ctx, tx, request)
                if tx.quantity ~= 2 or request.reason ~= "UNSATISFIED_WITH_PURCHASE" or request.deadline - request.requested_at ~= 43200 then
                    error("unexpected arguments")
                end
                return { customer_consented = true, delivery_status = "UNDELIVERED_SERVER_OUTAGE", sample_content_provided = true }
            end }
            """)
        let decision = engine.consumption(newCustomer, transaction: Self.transaction(), delivery: Self.delivered, request: Self.request)
        #expect(decision.value?.deliveryStatus == .undeliveredServerOutage, "\(String(describing: decision.failure))")
    }

    @Test(arguments: [
        (#"{ customer_consented = false, delivery_status = "DELIVERED", sample_content_provided = false }"#, "customer_consented"),
        (#"{ customer_consented = true, delivery_status = "delivered", sample_content_provided = false }"#, "delivery_status"),
        (#"{ customer_consented = true, delivery_status = "DELIVERED" }"#, "sample_content_provided"),
        (#"{ customer_consented = true, delivery_status = "DELIVERED", sample_content_provided = false, consumption_percentage = 100001 }"#, "consumption_percentage"),
        (#"{ customer_consented = true, delivery_status = "DELIVERED", sample_content_provided = false, consumption_percentage = 2.5 }"#, "consumption_percentage"),
        (#"{ customer_consented = true, delivery_status = "UNDELIVERED_OTHER", sample_content_provided = false, consumption_percentage = 5 }"#, "consumption_percentage"),
        (#"{ customer_consented = true, delivery_status = "DELIVERED", sample_content_provided = false, refund_preference = "GRANT_PRORATED" }"#, "consumption_percentage"),
        (#"{ customer_consented = true, delivery_status = "DELIVERED", sample_content_provided = false, refund_preference = "REFUND" }"#, "refund_preference"),
        (#"{ customer_consented = true, delivery_status = "DELIVERED", sample_content_provided = false, refund_prefrence = "DECLINE" }"#, "did you mean 'refund_preference'"),
        (#""DELIVERED""#, "expected a table"),
    ])
    func anAnswerAppleWouldRefuseIsTheHooksFailureNamingTheField(answer: String, named: String) throws {
        let decision = try Self.decide(returning: answer)
        #expect(decision.value == nil)
        let failure = try #require(decision.failure)
        #expect(failure.description.contains(named), "\(failure)")
    }

    @Test func aPercentageForAnAutoRenewableSubscriptionIsRefused() throws {
        let answer = #"{ customer_consented = true, delivery_status = "DELIVERED", sample_content_provided = true, consumption_percentage = 0 }"#
        let decision = try Self.decide(returning: answer, type: .autoRenewableSubscription)
        #expect(decision.failure?.description.contains("auto-renewable") == true)
        #expect(try Self.decide(returning: answer).value != nil, "a consumable may say how much was used")
    }

    @Test func nilAndAMissingHookSendNothing() throws {
        let answeredNil = try Self.decide(returning: "nil")
        #expect(answeredNil.source == .policy)
        #expect(answeredNil.value == nil)
        let engine = try makeEngine("return {}")
        let missing = engine.consumption(newCustomer, transaction: Self.transaction(), delivery: Self.delivered, request: Self.request)
        #expect(missing.source == .defaultForMissingHook)
        #expect(missing.value == nil)
    }

    @Test func evalTakesTheTransactionWithApplesNamesAndTheRequest() throws {
        let engine = try makeEngine("""
            return { consumption = function(ctx, tx, request)
                return { customer_consented = true, delivery_status = "DELIVERED", sample_content_provided = false,
                         refund_preference = request.reason == "LEGAL" and "GRANT_FULL" or "DECLINE",
                         consumption_percentage = tx.quantity * 1000 }
            end }
            """)
        let request = try HookRequest.decode(json: Data("""
            {"hook": "consumption", "args": [{"transactionId": "1", "productId": "pellets.box", "quantity": 3, "type": "Consumable"},
                                             {"reason": "LEGAL", "requested_at": 1700000000}]}
            """.utf8))
        let response = try request.evaluate(with: engine)
        #expect(response.result == .value(try #require(try ConsumptionAnswer(
            customerConsented: true, deliveryStatus: .delivered, consumptionPercentage: 3000, refundPreference: .grantFull,
            sampleContentProvided: false).luaValue as LuaValue?)))
        let wrong = try HookRequest.decode(json: Data(#"{"hook": "consumption", "args": [{"transactionId": "1"}, {"reasn": "LEGAL"}]}"#.utf8))
        #expect(throws: PolicyError.self) { try wrong.evaluate(with: engine) }
    }
}
