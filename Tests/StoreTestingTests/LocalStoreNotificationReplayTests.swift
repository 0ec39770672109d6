import Foundation
@testable import StoreCore
import SQLiteLedger
@testable import StoreTesting
import Testing

/// What a server that only receives App Store Server Notifications ends up knowing, against
/// what the app that received every transaction knows.
@Suite struct LocalStoreNotificationReplayTests {
    /// Everything a ledger holds about its customers, in a comparable form.
    struct LedgerImage: Equatable {
        var customers: [String] = []
        var transactions: [String: StoredTransaction] = [:]
        var versions: [String: [String]] = [:]
        var grants: [String: [Grant]] = [:]
        var reversedGrants: [String: [Grant]] = [:]
        var balances: [String: [String: Int]] = [:]
        var renewalInfos: [String: StoredRenewalInfo] = [:]

        init(_ ledger: Ledger) throws {
            customers = try ledger.customers().map(\.id).sorted()
            for customer in customers {
                balances[customer] = try ledger.balances(customerID: customer)
                for transaction in try ledger.transactions(customerID: customer) {
                    transactions[transaction.id] = transaction
                    versions[transaction.id] = try ledger.versions(ofTransaction: transaction.id).map(\.jwsRepresentation)
                    grants[transaction.id] = try ledger.grants(ofTransaction: transaction.id)
                    reversedGrants[transaction.id] = try ledger.reversedGrants(ofTransaction: transaction.id)
                    if let renewalInfo = try ledger.renewalInfo(originalTransactionID: transaction.originalID) {
                        renewalInfos[transaction.originalID] = renewalInfo
                    }
                }
            }
        }
    }

    /// The keys whose values differ, each with the names of the differing fields, so a
    /// failure reads without the signed payloads.
    static func differences<Value: Equatable>(_ lhs: [String: Value], _ rhs: [String: Value]) -> [String] {
        Set(lhs.keys).union(rhs.keys).sorted().compactMap { key in
            guard let left = lhs[key], let right = rhs[key] else {
                return "\(key): only in \(lhs[key] == nil ? "the second" : "the first")"
            }
            guard left != right else { return nil }
            let fields = zip(Mirror(reflecting: left).children, Mirror(reflecting: right).children)
                .filter { "\($0.value)" != "\($1.value)" }
                .map { $0.0.label ?? "?" }
            return "\(key): \(fields.joined(separator: ", "))"
        }
    }

    /// A year in the life of a few customers, without immediate plan changes.
    static func busyYear(_ harness: StoreHarness) throws {
        let store = harness.store
        try store.joinFamily(customer: "ana", familyID: "house")
        try store.joinFamily(customer: "bea", familyID: "house")
        let coins = try harness.buy("coins", options: [.quantity(2)])
        try harness.buy("recipe.pro")
        try harness.buy("season.pass")
        try harness.buy("pass.premium")
        try store.advance(by: StoreHarness.duration("P1M"))
        try harness.buy("pass.premium", options: [.promotionalOffer(offerID: "premium.promo")])
        try store.setAutoRenew(false, customer: "ana", groupID: "G1")
        try store.setAutoRenew(true, customer: "ana", groupID: "G1")
        try harness.buy("pass.family")
        try store.advance(by: StoreHarness.duration("P1M"))
        try store.updateSettings {
            $0.shouldEnterBillingRetryOnRenewal = true
            $0.billingGracePeriodIsEnabled = true
        }
        try store.advance(by: StoreHarness.duration("P1M"))
        try store.advance(by: StoreHarness.duration("P3D"))
        try store.resolveBillingIssue(customer: "ana", groupID: "G1")
        try store.resetSettings()

        guard case .pending(let approved) = try store.purchase("coins", customer: "carol", options: [.simulatesAskToBuy(true)]),
              case .pending(let declined) = try store.purchase("pass.basic", customer: "carol", options: [.simulatesAskToBuy(true)])
        else { throw HarnessFailure("expected Ask to Buy") }
        _ = try store.approveAskToBuy(approved.id)
        _ = try store.declineAskToBuy(declined.id)
        try harness.buy("pass.basic", "carol", options: [.offerCode("WELCOME")])
        try store.advance(by: StoreHarness.duration("P1M"))
        try store.setAutoRenew(false, customer: "carol", groupID: "G1")
        try store.advance(by: StoreHarness.duration("P2M"))
        try harness.buy("pass.basic", "carol", options: [.offerCode("AGAIN")])
        try harness.buy("weekly.tips", "dan")
        try store.advance(by: StoreHarness.duration("P10D"))
        try store.expireSubscription(customer: "dan", groupID: "W1")

        try store.refund(transactionID: coins.transactionId!, reason: .refundedDueToIssue)
        let carolsLatest = try #require(try store.subscription(customerID: "carol", groupID: "G1")).latestTransactionID
        try store.refund(transactionID: carolsLatest)
        try store.leaveFamily(customer: "bea")
        try store.advance(by: StoreHarness.duration("P2M"))
    }

    @Test func ingestingTheNotificationsAloneReproducesTheLedger() throws {
        let harness = try StoreHarness()
        try Self.busyYear(harness)
        let kinds = Set(try harness.sent())
        for kind in ["ONE_TIME_CHARGE", "SUBSCRIBED/INITIAL_BUY", "SUBSCRIBED/RESUBSCRIBE", "DID_RENEW",
                     "DID_RENEW/BILLING_RECOVERY", "OFFER_REDEEMED", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE",
                     "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED",
                     "DID_FAIL_TO_RENEW/GRACE_PERIOD", "EXPIRED/VOLUNTARY", "REFUND", "REVOKE"] {
            #expect(kinds.contains(kind), "the scenario sends no \(kind)")
        }

        let server = try Ledger(path: harness.directory.appendingPathComponent("server.sqlite").path)
        let results = try harness.store.replayNotifications(into: server, decide: StoreHarness.grants)
        #expect(results.count == (try harness.store.notifications().count))
        #expect(!results.contains(.alreadyProcessed))
        let app = try LedgerImage(harness.ledger)
        let replayed = try LedgerImage(server)
        #expect(app.transactions.count > 20)
        #expect(replayed.customers == app.customers)
        #expect(Self.differences(replayed.transactions, app.transactions).isEmpty)
        #expect(Self.differences(replayed.versions, app.versions).isEmpty)
        #expect(replayed.grants == app.grants)
        #expect(replayed.reversedGrants == app.reversedGrants)
        #expect(replayed.balances == app.balances)
        #expect(Self.differences(replayed.renewalInfos, app.renewalInfos).isEmpty)

        let again = try harness.store.replayNotifications(into: server, decide: StoreHarness.grants)
        #expect(again.allSatisfy { $0 == .alreadyProcessed })
        #expect(try LedgerImage(server) == replayed)
    }

    @Test func replayingFromASequenceDeliversOnlyWhatFollows() throws {
        let harness = try StoreHarness()
        try harness.buy("coins")
        let sequence = try harness.lastSequence()
        try harness.buy("pass.basic")
        let server = try Ledger(path: harness.directory.appendingPathComponent("server.sqlite").path)
        let results = try harness.store.replayNotifications(into: server, after: sequence, decide: StoreHarness.grants)
        #expect(results.count == 1)
        #expect(try server.transactions(customerID: "ana").map(\.productID) == ["pass.basic"])
    }

    /// An upgrade marks the superseded transaction `isUpgraded`, which the app receives and no
    /// notification carries (as with the App Store): the server's ledger keeps that
    /// transaction's earlier version, and everything else matches.
    @Test func anUpgradeIsTheOneChangeNotificationsDoNotCarry() throws {
        let harness = try StoreHarness()
        try harness.store.joinFamily(customer: "ana", familyID: "house")
        try harness.store.joinFamily(customer: "bea", familyID: "house")
        try harness.buy("pass.family")
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        try harness.buy("pass.premium.annual")
        try harness.store.advance(by: StoreHarness.duration("P1M"))

        let server = try Ledger(path: harness.directory.appendingPathComponent("server.sqlite").path)
        try harness.store.replayNotifications(into: server, decide: StoreHarness.grants)
        let app = try LedgerImage(harness.ledger)
        let replayed = try LedgerImage(server)
        let upgraded = app.transactions.values.filter(\.isUpgraded).map(\.id).sorted()
        #expect(upgraded.count == 2)
        for id in upgraded {
            let (mine, theirs) = (try #require(app.transactions[id]), try #require(replayed.transactions[id]))
            #expect(theirs.isUpgraded == false)
            #expect(app.versions[id]?.dropLast() == replayed.versions[id].map { $0[...] })
            var unmarked = mine
            unmarked.isUpgraded = false
            unmarked.signedDate = theirs.signedDate
            unmarked.jwsRepresentation = theirs.jwsRepresentation
            #expect(unmarked == theirs)
        }
        #expect(app.transactions.filter { !upgraded.contains($0.key) } == replayed.transactions.filter { !upgraded.contains($0.key) })
        #expect(replayed.grants == app.grants)
        #expect(replayed.balances == app.balances)
        #expect(replayed.renewalInfos == app.renewalInfos)
    }
}
