import Foundation
import LuaBridge
import StoreCore
import Testing
@testable import StorePolicy

/// The policy's `grant` hook as the ledger's decision, with the customer's context at ingest.
@Suite struct CustomerContextFromLedgerGrantTests {
    typealias Store = BackyardBirdsLedger

    /// Five pellets per box, a bonus pellet for pass subscribers, and a receipt item naming what
    /// the hook saw of the context and of the signed transaction.
    static let bonusPolicy = """
    local policy = {}
    function policy.grant(ctx, tx, product)
        if product.type ~= "consumable" then return {} end
        local grants = { { item = "pellet", amount = 5 * tx.quantity } }
        local pass = ctx.customer.subscriptions["\(Store.pass)"]
        if pass ~= nil and pass.state == "subscribed" then
            grants[#grants + 1] = { item = "bonus_pellet", amount = tx.quantity }
        end
        grants[#grants + 1] = {
            item = "receipt_" .. ctx.storefront .. "_" .. ctx.environment .. "_" .. tx.currency .. "_" .. tx.price,
            amount = 1,
        }
        return grants
    end
    return policy
    """

    @Test func theExamplePolicyGrantsBirdFoodThroughTheLedger() throws {
        let store = try Store()
        let decide = try store.engine().grantDecision(for: store.ledger, catalog: store.catalog)
        let result = try store.ingest(
            Store.transaction("20", product: "food.sampler", type: .consumable, quantity: 3, bought: 1), decide: decide)
        #expect(result.outcome == .granted([Grant(item: "pellet", amount: 6), Grant(item: "nectar", amount: 6)]))
        #expect(try store.ledger.balances(customerID: "ada") == ["pellet": 6, "nectar": 6])
        #expect(try store.ingest(Store.transaction("21", product: "feeder.golden", type: .nonConsumable, bought: 2), decide: decide)
            .outcome == .granted([]))
    }

    @Test func theGrantSeesTheCustomerAtIngestAndTheWholeSignedTransaction() throws {
        let store = try Store()
        let engine = try store.engine(Self.bonusPolicy)
        func decide(onDay day: Double) -> @Sendable (StoredTransaction) throws -> [Grant] {
            engine.grantDecision(for: store.ledger, catalog: store.catalog, clock: { Store.day(day) })
        }

        let beforePass = try store.ingest(
            Store.transaction("30", product: "pellet.box", type: .consumable, quantity: 2, bought: 1, price: 1990, storefront: "FRA"),
            decide: decide(onDay: 1))
        #expect(beforePass.outcome == .granted([
            Grant(item: "pellet", amount: 10), Grant(item: "receipt_FRA_sandbox_EUR_1990", amount: 1),
        ]))

        try store.ingest(Store.transaction("31", product: "pass.individual", type: .autoRenewableSubscription, bought: 2), decide: decide(onDay: 2))
        let withPass = try store.ingest(
            Store.transaction("32", product: "pellet.box", type: .consumable, bought: 5, price: 990, storefront: "DEU"),
            decide: decide(onDay: 5))
        #expect(withPass.outcome == .granted([
            Grant(item: "pellet", amount: 5), Grant(item: "bonus_pellet", amount: 1), Grant(item: "receipt_DEU_sandbox_EUR_990", amount: 1),
        ]))

        let afterPass = try store.ingest(
            Store.transaction("33", product: "pellet.box", type: .consumable, bought: 40, price: 990, storefront: "DEU"),
            decide: decide(onDay: 40))
        #expect(afterPass.outcome == .granted([Grant(item: "pellet", amount: 5), Grant(item: "receipt_DEU_sandbox_EUR_990", amount: 1)]))
        #expect(try store.ledger.balance(of: "pellet", customerID: "ada") == 20)
        #expect(try store.ledger.balance(of: "bonus_pellet", customerID: "ada") == 1)
    }

    @Test func theTransactionBeingGrantedIsAlreadyPartOfTheCustomer() throws {
        let store = try Store()
        let engine = try store.engine("""
        local policy = {}
        function policy.grant(ctx, tx, product)
            local grants = {}
            for _, id in ipairs(ctx.customer.entitlements) do grants[#grants + 1] = { item = "owned_" .. id, amount = 1 } end
            return grants
        end
        return policy
        """)
        let decide = engine.grantDecision(for: store.ledger, catalog: store.catalog, clock: { Store.day(3) })
        let result = try store.ingest(Store.transaction("40", product: "feeder.golden", type: .nonConsumable, bought: 2), decide: decide)
        #expect(result.outcome == .granted([Grant(item: "owned_feeder.golden", amount: 1)]))
    }

    @Test func theHostsAttributesReachTheGrantHook() throws {
        let store = try Store()
        let engine = try store.engine("""
        local policy = {}
        function policy.grant(ctx, tx, product)
            return { { item = "pellet", amount = ctx.customer.attributes.multiplier * tx.quantity } }
        end
        return policy
        """)
        let decide = engine.grantDecision(for: store.ledger, catalog: store.catalog, attributes: { customerID in
            customerID == "ada" ? ["multiplier": .integer(7)] : ["multiplier": .integer(1)]
        })
        try store.ingest(Store.transaction("50", product: "pellet.box", type: .consumable, quantity: 2, bought: 1), customer: "ada", decide: decide)
        try store.ingest(Store.transaction("51", product: "pellet.box", type: .consumable, quantity: 2, bought: 1), customer: "grace", decide: decide)
        #expect(try store.ledger.balance(of: "pellet", customerID: "ada") == 14)
        #expect(try store.ledger.balance(of: "pellet", customerID: "grace") == 2)
    }

    @Test func aFailingGrantHookLeavesTheTransactionUnfinishedUntilTheFixedPolicyGrantsItOnce() throws {
        let store = try Store()
        let engine = try store.engine("""
        local policy = {}
        function policy.grant(ctx, tx, product) error("the grant rules are being edited") end
        return policy
        """)
        let decide = engine.grantDecision(for: store.ledger, catalog: store.catalog)
        let result = try store.ingest(Store.transaction("60", product: "pellet.box", type: .consumable, bought: 1), decide: decide)
        guard case .unfinished(.decisionFailed(let detail)) = result.outcome else {
            Issue.record("expected the transaction unfinished, got \(result.outcome)")
            return
        }
        #expect(detail.contains("grant"))
        #expect(detail.contains("the grant rules are being edited"))
        #expect(try store.ledger.balances(customerID: "ada").isEmpty)

        try engine.reload(try Store.folder.policySource())
        let retried = try store.ledger.retryUnfinished(customerID: "ada", decide: decide)
        #expect(retried.map(\.outcome) == [.granted([Grant(item: "pellet", amount: 5)])])
        #expect(try store.ledger.retryUnfinished(customerID: "ada", decide: decide).isEmpty)
        #expect(try store.ledger.balance(of: "pellet", customerID: "ada") == 5)
    }

    @Test func aProductMissingFromThePolicyCatalogIsNotGuessedAt() throws {
        let store = try Store()
        let decide = try store.engine().grantDecision(for: store.ledger, catalog: store.catalog)
        let result = try store.ingest(Store.transaction("70", product: "mystery.box", type: .consumable, bought: 1), decide: decide)
        guard case .unfinished(.decisionFailed(let detail)) = result.outcome else {
            Issue.record("expected the transaction unfinished, got \(result.outcome)")
            return
        }
        #expect(detail.contains("no product 'mystery.box' in the catalog"))
    }

    // MARK: - Stored JWS that cannot speak for the transaction

    private static func stored(id: String = "80", product: String = "pellet.box", jws: String) -> StoredTransaction {
        StoredTransaction(
            id: id, originalID: id, customerID: "ada", productID: product, productType: .consumable,
            purchaseDate: Store.day(1), environment: .sandbox, signedDate: Store.day(1), jwsRepresentation: jws,
            grantState: .unfinished(.awaitingGrant))
    }

    private static func unsignedJWS(payload: String) -> String {
        func base64URL(_ text: String) -> String {
            Data(text.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return base64URL(#"{"alg":"none"}"#) + "." + base64URL(payload) + "."
    }

    @Test func aStoredJWSOfAnotherTransactionIsRefused() throws {
        let store = try Store()
        let decide = try store.engine().grantDecision(for: store.ledger, catalog: store.catalog)
        let other = try Store.authority.sign(Store.transaction("81", product: "pellet.box", type: .consumable, bought: 1))
        #expect(throws: LedgerGrantError.transactionMismatch(transactionID: "80", field: "transactionId", stored: "80", signed: "81")) {
            try decide(Self.stored(jws: other))
        }
        let sameIDOtherProduct = try Store.authority.sign(Store.transaction("80", product: "nectar.cup", type: .consumable, bought: 1))
        #expect(throws: LedgerGrantError.transactionMismatch(transactionID: "80", field: "productId", stored: "pellet.box", signed: "nectar.cup")) {
            try decide(Self.stored(jws: sameIDOtherProduct))
        }
    }

    @Test func aStoredJWSThatDoesNotDecodeIsRefused() throws {
        let store = try Store()
        let decide = try store.engine().grantDecision(for: store.ledger, catalog: store.catalog)
        #expect {
            try decide(Self.stored(jws: "not a jws"))
        } throws: { error in
            guard case LedgerGrantError.unreadableTransaction(transactionID: "80", let reason) = error else { return false }
            return !reason.isEmpty
        }
        #expect {
            try decide(Self.stored(jws: Self.unsignedJWS(payload: #"{"transactionId":80}"#)))
        } throws: { error in
            guard case LedgerGrantError.unreadableTransaction(transactionID: "80", let reason) = error else { return false }
            return reason.hasPrefix("transactionId:")
        }
        let descriptions = [
            LedgerGrantError.unreadableTransaction(transactionID: "80", reason: "bad"),
            .transactionMismatch(transactionID: "80", field: "productId", stored: "a", signed: "b"),
        ].map(\.description)
        #expect(descriptions.allSatisfy { !$0.isEmpty && !$0.contains("\n") })
    }
}
