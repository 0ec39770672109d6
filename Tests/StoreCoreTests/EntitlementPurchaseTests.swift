import Foundation
import Testing
@testable import StoreCore

/// Current entitlements of purchases that are not auto-renewable subscriptions.
@Suite struct EntitlementPurchaseTests {
    typealias F = EntitlementFixtures

    @Test func aNonConsumableIsAnEntitlementForGood() throws {
        let store = try EntitlementLedger()
        try store.record(F.transaction("100", product: "feeder.golden", type: .nonConsumable, bought: 1))

        let state = try store.state(onDay: 3_000)
        #expect(state.currentEntitlements.map(\.id) == ["100"])
        #expect(state.entitledProductIDs == ["feeder.golden"])
        #expect(state.isEntitled(to: "feeder.golden"))
        #expect(try store.state(onDay: 0).isEntitled(to: "feeder.golden"), "a recorded purchase counts whatever its date")
    }

    @Test func aRefundedNonConsumableIsNoLongerAnEntitlementButStaysInTheHistory() throws {
        let store = try EntitlementLedger()
        try store.record(F.transaction("101", product: "feeder.golden", type: .nonConsumable, bought: 1))
        try store.record(F.transaction("101", product: "feeder.golden", type: .nonConsumable, bought: 1, signed: 5, revoked: 5))

        let state = try store.state(onDay: 6)
        #expect(state.currentEntitlements.isEmpty)
        #expect(!state.isEntitled(to: "feeder.golden"))
        #expect(state.transactions.map(\.id) == ["101"])
        #expect(state.latestTransaction(for: "feeder.golden")?.revocationDate == F.day(5))
    }

    @Test func aNonConsumableBoughtAgainAfterARefundIsEntitledThroughTheNewTransaction() throws {
        let store = try EntitlementLedger()
        try store.record(
            F.transaction("102", product: "feeder.golden", type: .nonConsumable, bought: 1, signed: 2, revoked: 2),
            F.transaction("103", product: "feeder.golden", type: .nonConsumable, bought: 4))

        let state = try store.state(onDay: 5)
        #expect(state.currentEntitlements.map(\.id) == ["103"])
        #expect(state.transactions(for: "feeder.golden").map(\.id) == ["102", "103"])
    }

    @Test func aFamilySharedNonConsumableIsAnEntitlement() throws {
        let store = try EntitlementLedger()
        try store.record(F.transaction("104", product: "feeder.golden", type: .nonConsumable, bought: 1, ownership: .familyShared))

        let state = try store.state(onDay: 2)
        #expect(state.currentEntitlements.map(\.id) == ["104"])
        #expect(state.currentEntitlements.first?.ownershipType == .familyShared)
    }

    @Test func aConsumableIsNeverAnEntitlementAndItsGrantsAreInTheBalances() throws {
        let store = try EntitlementLedger()
        try store.record(
            F.transaction("105", product: "pellet.box", type: .consumable, bought: 1),
            F.transaction("106", product: "pellet.box", type: .consumable, bought: 2))

        let state = try store.state(onDay: 3)
        #expect(state.currentEntitlements.isEmpty)
        #expect(state.balances == ["pellet": 10])
        #expect(state.balance(of: "pellet") == 10)
        #expect(state.balance(of: "nectar") == 0)
        #expect(state.latestTransaction(for: "pellet.box")?.id == "106")
    }

    @Test func aNonRenewingSubscriptionIsAnEntitlementWithinItsPeriodOnly() throws {
        let store = try EntitlementLedger()
        try store.record(F.transaction("107", product: "season.pass", type: .nonRenewingSubscription, bought: 10, expires: 100))

        #expect(try store.state(onDay: 50).currentEntitlements.map(\.id) == ["107"])
        #expect(try store.state(onDay: 99.9).isEntitled(to: "season.pass"))
        #expect(try !store.state(onDay: 100).isEntitled(to: "season.pass"), "the period ends at expiresDate")
        #expect(try !store.state(onDay: 150).isEntitled(to: "season.pass"))
    }

    @Test func ofSeveralNonRenewingPeriodsTheOneEndingLastIsTheEntitlement() throws {
        let store = try EntitlementLedger()
        try store.record(
            F.transaction("108", product: "season.pass", type: .nonRenewingSubscription, bought: 0, expires: 100),
            F.transaction("109", product: "season.pass", type: .nonRenewingSubscription, bought: 90, expires: 200))

        #expect(try store.state(onDay: 95).currentEntitlements.map(\.id) == ["109"])
        #expect(try store.state(onDay: 150).currentEntitlements.map(\.id) == ["109"])
        #expect(try store.state(onDay: 200).currentEntitlements.isEmpty)
    }

    @Test func aNonRenewingSubscriptionWithoutExpiresDateRunsUntilRevoked() throws {
        let store = try EntitlementLedger()
        try store.record(F.transaction("110", product: "season.pass", type: .nonRenewingSubscription, bought: 1))
        #expect(try store.state(onDay: 1_000).isEntitled(to: "season.pass"))

        try store.record(F.transaction("110", product: "season.pass", type: .nonRenewingSubscription, bought: 1, signed: 3, revoked: 3))
        #expect(try !store.state(onDay: 4).isEntitled(to: "season.pass"))
    }

    @Test func aRevokedNonRenewingSubscriptionIsNotAnEntitlementWithinItsPeriod() throws {
        let store = try EntitlementLedger()
        try store.record(F.transaction("111", product: "season.pass", type: .nonRenewingSubscription, bought: 1, expires: 100, signed: 5, revoked: 5))
        #expect(try store.state(onDay: 50).currentEntitlements.isEmpty)
    }

    @Test func entitlementsAreOrderedByProductAndListEveryKindTogether() throws {
        let store = try EntitlementLedger()
        try store.record(
            F.transaction("120", product: "season.pass", type: .nonRenewingSubscription, bought: 1, expires: 100),
            F.transaction("121", product: "feeder.golden", type: .nonConsumable, bought: 2),
            F.pass("122", product: "pass.family", bought: 3),
            F.transaction("123", product: "pellet.box", type: .consumable, bought: 4))

        let state = try store.state(onDay: 10)
        #expect(state.currentEntitlements.map(\.productID) == ["feeder.golden", "pass.family", "season.pass"])
        #expect(state.transactions.map(\.id) == ["120", "121", "122", "123"])
    }
}
