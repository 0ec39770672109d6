import Foundation
import LuaBridge
import StoreCore
import Testing
@testable import StorePolicy

/// `consumption`'s `tx` says whether and when the ledger granted the purchase and what, so a
/// rule can tell a purchase used up from one never delivered — from the host, `eval`, `decide`
/// and `diff` alike.
@Suite struct RefundedTransactionDeliveryTests {
    /// A hook that answers what it read: delivered or not by `tx.granted`, the grants standing
    /// (not reversed) as thousandths of a percent, `DECLINE` when granted at 1 699 000 000 and
    /// `GRANT_FULL` when `granted_date` is nil.
    static let echo = """
        return { consumption = function(ctx, tx, request)
            local standing = 0
            for _, g in ipairs(tx.grants) do
                if not g.reversed then standing = standing + g.amount end
            end
            local preference = nil
            if tx.granted_date == nil then preference = "GRANT_FULL" elseif tx.granted_date == 1699000000 then preference = "DECLINE" end
            return { customer_consented = true, sample_content_provided = false,
                     delivery_status = tx.granted and "DELIVERED" or "UNDELIVERED_OTHER",
                     consumption_percentage = standing * 1000, refund_preference = preference }
        end }
        """

    static let request = RefundRequest(reason: "OTHER", notificationUUID: "n-1", requestedAt: Date(timeIntervalSince1970: 1_700_000_000),
                                       deadline: Date(timeIntervalSince1970: 1_700_043_200))

    static var transaction: JWSTransactionDecodedPayload {
        var transaction = JWSTransactionDecodedPayload()
        transaction.transactionId = "2000000000000001"
        transaction.productId = "pellets.box"
        transaction.type = .consumable
        transaction.purchaseDate = Date(timeIntervalSince1970: 1_698_000_000)
        return transaction
    }

    @Test func theHookReadsWhenTheLedgerGrantedAndWhatWithReversedGrantsMarked() throws {
        let delivery = TransactionDelivery(grantState: .granted, grantedDate: Date(timeIntervalSince1970: 1_699_000_000.7), grants: [
            .init(item: "pellet", amount: 5), .init(item: "nectar", amount: 2, isReversed: true),
        ])
        let decision = try makeEngine(Self.echo).consumption(newCustomer, transaction: Self.transaction, delivery: delivery, request: Self.request)
        let answer = try #require(decision.value, "\(String(describing: decision.failure))")
        #expect(answer.deliveryStatus == .delivered)
        #expect(answer.consumptionPercentage == 5_000, "the reversed nectar is listed, marked, and left out by the rule")
        #expect(answer.refundPreference == .decline, "granted_date is whole epoch seconds")
    }

    @Test(arguments: [TransactionDelivery.notStored, TransactionDelivery(grantState: .unfinished(.decisionFailed("boom"))),
                      TransactionDelivery(grantState: .revokedBeforeGrant)])
    func aTransactionTheLedgerDidNotGrantIsNotGrantedAndHasNoGrants(delivery: TransactionDelivery) throws {
        let decision = try makeEngine(Self.echo).consumption(newCustomer, transaction: Self.transaction, delivery: delivery, request: Self.request)
        let answer = try #require(decision.value, "\(String(describing: decision.failure))")
        #expect(answer.deliveryStatus == .undeliveredOther)
        #expect(answer.consumptionPercentage == 0)
        #expect(answer.refundPreference == .grantFull, "no granted_date")
    }

    @Test func aMisspelledDeliveryFieldNamesTheNearestAndGrantsTransactionHasNone() throws {
        let misspelled = try makeEngine("return { consumption = function(ctx, tx, request) return tx.grant_date end }")
            .consumption(newCustomer, transaction: Self.transaction, delivery: .notStored, request: Self.request)
        #expect(misspelled.failure?.description.contains("did you mean 'granted_date'") == true, "\(String(describing: misspelled.failure))")
        let grant = try makeEngine("""
            return { grant = function(ctx, tx, product) if tx.granted == nil then return {} end return {} end }
            """)
        #expect(throws: PolicyError.self, "the transaction grant decides about is not granted yet: it has no 'granted'") {
            try grant.grant(newCustomer, transaction: Self.transaction, product: "pellets.box")
        }
    }

    @Test func evalTakesTheDeliveryWithTheTransactionGrantedAtItsPurchaseByDefault() throws {
        let engine = try makeEngine(Self.echo)
        func answer(_ transaction: String) throws -> HookResult {
            try HookRequest.decode(json: Data("""
                {"hook": "consumption", "args": [\(transaction), {"reason": "OTHER"}]}
                """.utf8)).evaluate(with: engine).result
        }
        let purchase = #""transactionId": "1", "productId": "pellets.box", "type": "Consumable", "purchaseDate": 1699000000000"#
        let byDefault = try answer("{\(purchase)}")
        #expect(byDefault == .value(try ConsumptionAnswer(customerConsented: true, deliveryStatus: .delivered, consumptionPercentage: 0,
                                                          refundPreference: .decline, sampleContentProvided: false).luaValue))
        let listed = try answer(#"{\#(purchase), "granted_date": 1700000000, "grants": [{"item": "pellet", "amount": 7}]}"#)
        #expect(listed == .value(try ConsumptionAnswer(customerConsented: true, deliveryStatus: .delivered, consumptionPercentage: 7_000,
                                                       sampleContentProvided: false).luaValue))
        let ungranted = try answer(#"{\#(purchase), "granted": false}"#)
        #expect(ungranted == .value(try ConsumptionAnswer(customerConsented: true, deliveryStatus: .undeliveredOther, consumptionPercentage: 0,
                                                          refundPreference: .grantFull, sampleContentProvided: false).luaValue))
        for (wrong, named) in [(#"{\#(purchase), "grants": [{"item": "pellet", "amount": 0}]}"#, "grants[0].amount"),
                               (#"{\#(purchase), "grants": [{"item": "pellet", "amount": 1, "reversd": true}]}"#, "did you mean 'reversed'"),
                               (#"{\#(purchase), "granted": false, "grants": [{"item": "pellet", "amount": 1}]}"#, "grants"),
                               (#"{\#(purchase), "granted": "no"}"#, "granted")] {
            let error = #expect(throws: PolicyError.self) { try answer(wrong) }
            #expect(error?.description.contains(named) == true, "\(String(describing: error))")
        }
    }

    @Test func diffAsksAboutAPurchaseTheLedgerNeverGranted() throws {
        let balanceOnly = """
            return { consumption = function(ctx, tx, request)
                return { customer_consented = true, delivery_status = "DELIVERED", sample_content_provided = false }
            end }
            """
        let readsGranted = """
            return { consumption = function(ctx, tx, request)
                return { customer_consented = true, sample_content_provided = false,
                         delivery_status = tx.granted and "DELIVERED" or "UNDELIVERED_OTHER" }
            end }
            """
        let report = try PolicyDiff(old: PolicyDiff.Side(source: PolicySource(text: balanceOnly), catalog: testCatalog, tests: []),
                                    new: PolicyDiff.Side(source: PolicySource(text: readsGranted), catalog: testCatalog, tests: []))
            .compare(hooks: ["consumption"], limit: 1_000)
        let examples = try #require(report.changed.first).examples
        #expect(!examples.isEmpty)
        #expect(examples.allSatisfy { example in
            guard case .table(let transaction)? = example.args.first else { return false }
            return transaction.hash[.string("granted")] == .boolean(false)
        }, "only the purchases the ledger did not grant decide differently")
    }
}
