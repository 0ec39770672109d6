import Foundation
@testable import StoreCore
import Testing

/// What a change reports, read from the state last reported and the state after it, in the
/// orders Apple and an app deliver things: late renewals, resubscribes, upgrades marked before
/// their successor arrives, changes chosen for the next renewal.
@Suite struct OutgoingEventClassifierTests {
    static let day: TimeInterval = 86_400

    /// A subscription as reported, from its JSON form.
    static func subscription(
        transaction: String, product: String = "pass.monthly", status: String = "subscribed", expiresDay: Double = 30,
        willAutoRenew: Bool? = true, renewsTo: String? = nil
    ) throws -> ReportedSubscription {
        var object: [String: Any] = [
            "original_transaction_id": "t0", "group_id": "G1", "product_id": product, "transaction_id": transaction,
            "status": status, "expires_date": Date(timeIntervalSince1970: expiresDay * day).formatted(.iso8601),
            "is_trial": false, "is_family_shared": false,
        ]
        if let willAutoRenew { object["will_auto_renew"] = willAutoRenew }
        if let renewsTo { object["renews_to_product_id"] = renewsTo }
        return try OutgoingEventJSON.decoder.decode(ReportedSubscription.self, from: JSONSerialization.data(withJSONObject: object))
    }

    static func state(_ subscriptions: [ReportedSubscription], entitled: Bool = true) throws -> ReportedCustomerState {
        let object: [String: Any] = [
            "entitlements": entitled ? Array(Set(subscriptions.map(\.productID))).sorted() : [],
            "subscriptions": try subscriptions.map { try JSONSerialization.jsonObject(with: OutgoingEventJSON.encoder.encode($0)) },
            "balances": [:] as [String: Int],
        ]
        return try OutgoingEventJSON.decoder.decode(ReportedCustomerState.self, from: JSONSerialization.data(withJSONObject: object))
    }

    static let levels = ["pass.premium": 1, "pass.monthly": 2, "pass.basic": 3]

    static func classify(_ previous: ReportedCustomerState, _ current: ReportedCustomerState,
                         facts: [TransactionIngestResult] = []) -> OutgoingEventClassifier.Classification {
        OutgoingEventClassifier(previous: previous, current: current, level: { levels[$0] }).classify(settling: facts)
    }

    @Test("a renewal arriving after the clock lapsed a subscription that was to renew is a renewal; one bought again after a cancellation starts it")
    func lateRenewalAndResubscribe() throws {
        let lapsedRenewing = try Self.state([Self.subscription(transaction: "t1", status: "expired")], entitled: false)
        let renewed = try Self.state([Self.subscription(transaction: "t2", expiresDay: 60)])
        #expect(Self.classify(lapsedRenewing, renewed).events.map(\.type) == [.subscriptionRenewed, .entitlementsChanged])

        let cancelled = try Self.state([Self.subscription(transaction: "t1", status: "expired", willAutoRenew: false)], entitled: false)
        #expect(Self.classify(cancelled, renewed).events.map(\.type) == [.subscriptionStarted, .entitlementsChanged],
                "a resubscribe, and no renewal_enabled beside it")
    }

    @Test("an old period marked upgraded before its successor arrives reports nothing; the successor reports one upgrade")
    func upgradeMarkedFirst() throws {
        let monthly = try Self.state([Self.subscription(transaction: "t1", expiresDay: 30)])
        // Apple re-signed t1 with isUpgraded: the chain's latest falls back to t0, an earlier period.
        let fallenBack = try Self.state([Self.subscription(transaction: "t0", status: "expired", expiresDay: 0)], entitled: false)
        let marked = Self.classify(monthly, fallenBack)
        #expect(marked.events.map(\.type) == [])
        #expect(marked.reported == monthly, "the reported period stays until its successor comes")
        let premium = try Self.state([Self.subscription(transaction: "t2", product: "pass.premium", expiresDay: 40)])
        let upgraded = Self.classify(marked.reported, premium)
        #expect(upgraded.events.map(\.type) == [.subscriptionUpgraded, .entitlementsChanged])
        #expect(upgraded.events.first?.previousProductID == "pass.monthly" && upgraded.events.first?.effective == "now")
    }

    @Test("a downgrade chosen for the next renewal is reported then, its renewal as a renewal into it, and a withdrawn choice as nothing")
    func pendingDowngrade() throws {
        let monthly = try Self.state([Self.subscription(transaction: "t1")])
        let chosen = try Self.state([Self.subscription(transaction: "t1", renewsTo: "pass.basic")])
        let downgrade = Self.classify(monthly, chosen).events
        #expect(downgrade.map(\.type) == [.subscriptionDowngraded])
        #expect(downgrade.first?.effective == "next_renewal" && downgrade.first?.previousProductID == "pass.monthly")
        #expect(Self.classify(chosen, monthly).events.isEmpty, "the choice withdrawn")
        let renewedInto = try Self.state([Self.subscription(transaction: "t2", product: "pass.basic", expiresDay: 60)])
        let renewal = Self.classify(chosen, renewedInto).events
        #expect(renewal.map(\.type) == [.subscriptionRenewed, .entitlementsChanged])
        #expect(renewal.first?.previousProductID == "pass.monthly")
    }

    @Test("a period's grants go on the event of the period only; grants of a period reported before go on purchase.granted")
    func grantsOnThePeriod() throws {
        let monthly = try Self.state([Self.subscription(transaction: "t1")])
        let renewedOff = try Self.state([Self.subscription(transaction: "t2", expiresDay: 60, willAutoRenew: false)])
        let grants = [Grant(item: "seed", amount: 3)]
        let fact = try Self.fact(transaction: "t2", grants: grants)
        let events = Self.classify(monthly, renewedOff, facts: [fact]).events
        #expect(events.map(\.type) == [.subscriptionRenewed, .subscriptionRenewalDisabled])
        #expect(events[0].grants == grants && events[1].grants == nil, "credited once")
        let later = Self.classify(renewedOff, renewedOff, facts: [fact]).events
        #expect(later.map(\.type) == [.purchaseGranted] && later[0].grants == grants && later[0].transaction?.id == "t2")
    }

    /// A subscription transaction granted `grants`, as an ingest reports it.
    static func fact(transaction: String, grants: [Grant]) throws -> TransactionIngestResult {
        let payload = JWSTransactionDecodedPayload(
            originalTransactionId: "t0", transactionId: transaction, bundleId: "com.example", productId: "pass.monthly",
            subscriptionGroupIdentifier: "G1", purchaseDate: Date(timeIntervalSince1970: 30 * day),
            expiresDate: Date(timeIntervalSince1970: 60 * day), quantity: 1, type: .autoRenewableSubscription,
            inAppOwnershipType: .purchased, signedDate: Date(timeIntervalSince1970: 30 * day), environment: .sandbox)
        let stored = try Ledger.receivedTransaction(payload, jwsRepresentation: "e30.e30.", customerID: "ana")
        return TransactionIngestResult(transaction: stored, storage: .inserted, outcome: .granted(grants))
    }
}
