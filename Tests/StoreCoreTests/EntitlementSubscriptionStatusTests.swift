import Foundation
import Testing
@testable import StoreCore

/// Subscription statuses and the entitlements they give, situation by situation.
@Suite struct EntitlementSubscriptionStatusTests {
    typealias F = EntitlementFixtures
    typealias RenewalState = Product.SubscriptionInfo.RenewalState

    @Test func anActiveSubscriptionIsSubscribedAndAnEntitlement() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("200", bought: 0))
        try store.record(F.renewal("200", signed: 0))

        let state = try store.state(onDay: 10)
        let status = try #require(state.subscriptionStatus(forGroup: "PASS"))
        #expect(status.state == .subscribed)
        #expect(status.givesService)
        #expect(status.transaction.id == "200")
        #expect(status.subscriptionGroupID == "PASS")
        #expect(status.groupLevel == 3)
        #expect(status.willAutoRenew)
        #expect(status.autoRenewProductID == "pass.individual")
        #expect(status.scheduledRenewalProductID == nil)
        #expect(status.expirationDate == F.day(30))
        #expect(status.renewalInfo?.originalTransactionID == "200")
        #expect(state.currentEntitlements.map(\.id) == ["200"])
        #expect(state.subscriptionStatuses.keys.sorted() == ["PASS"])
    }

    @Test func aSubscriptionPastItsPeriodIsExpiredAndNoEntitlement() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("201", bought: 0))
        try store.record(F.renewal("201", autoRenew: .off, intent: .customerCancelled, signed: 30))

        let state = try store.state(onDay: 30)
        let status = try #require(state.subscriptionStatus(forGroup: "PASS"))
        #expect(status.state == .expired, "the period ends at expiresDate")
        #expect(!status.givesService)
        #expect(status.expirationReason == .customerCancelled)
        #expect(state.currentEntitlements.isEmpty)
    }

    @Test func aSubscriptionWithoutRenewalInfoExpiresAtTheEndOfItsPeriodAndDoesNotClaimToRenew() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("202", bought: 0))

        let during = try #require(try store.state(onDay: 29).subscriptionStatus(forGroup: "PASS"))
        #expect(during.state == .subscribed)
        #expect(during.renewalInfo == nil)
        #expect(!during.willAutoRenew)
        #expect(try store.state(onDay: 31).subscriptionStatus(forGroup: "PASS")?.state == .expired)
    }

    @Test func theLatestRenewalSpeaksForTheSubscription() throws {
        let store = try EntitlementLedger()
        try store.record(
            F.pass("203", bought: 0),
            F.pass("204", originalID: "203", bought: 30),
            F.pass("205", originalID: "203", bought: 60))
        try store.record(F.renewal("203", signed: 60))

        let state = try store.state(onDay: 70)
        #expect(state.subscriptionStatuses(inGroup: "PASS").map(\.transaction.id) == ["205"])
        #expect(state.subscriptionStatus(forGroup: "PASS")?.state == .subscribed)
        #expect(state.currentEntitlements.map(\.id) == ["205"])
        #expect(state.latestTransaction(for: "pass.individual")?.id == "205")
    }

    @Test func anUpgradeTakesOverAtOnceAndTheUpgradedTransactionGivesNoService() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("206", product: "pass.individual", bought: 0, expires: 365))
        // On day 10 the customer upgrades from a yearly plan: the App Store signs the old
        // transaction again as upgraded, and the premium month starts at once, ending long
        // before the old year would have.
        try store.record(
            F.pass("206", product: "pass.individual", bought: 0, expires: 365, signed: 10, upgraded: true),
            F.pass("207", product: "pass.premium", originalID: "206", bought: 10))
        try store.record(F.renewal("206", product: "pass.premium", signed: 10))

        let state = try store.state(onDay: 20)
        let status = try #require(state.subscriptionStatus(forGroup: "PASS"))
        #expect(status.transaction.id == "207")
        #expect(status.transaction.productID == "pass.premium")
        #expect(status.groupLevel == 1)
        #expect(status.state == .subscribed)
        #expect(state.currentEntitlements.map(\.id) == ["207"])
        #expect(!state.isEntitled(to: "pass.individual"))
        #expect(state.transactions(for: "pass.individual").first?.isUpgraded == true)
    }

    @Test func aSubscriptionWhoseOnlyTransactionIsUpgradedIsExpired() throws {
        let transaction = StoredTransaction(
            id: "208", originalID: "208", customerID: "ada", productID: "pass.individual",
            productType: .autoRenewableSubscription, subscriptionGroupID: "PASS", purchaseDate: F.day(0),
            expirationDate: F.day(30), isUpgraded: true, environment: .sandbox, signedDate: F.day(5),
            jwsRepresentation: "unused", grantState: .granted)
        #expect(RenewalState(transaction: transaction, renewalInfo: nil, at: F.day(10)) == .expired)
    }

    @Test func aFailedRenewalInBillingRetryGivesNoService() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("209", bought: 0))
        try store.record(F.renewal("209", billingRetry: true, intent: .billingError, signed: 30))

        let before = try #require(try store.state(onDay: 29).subscriptionStatus(forGroup: "PASS"))
        #expect(before.state == .subscribed, "billing retry matters only once the period has ended")
        let state = try store.state(onDay: 35)
        let status = try #require(state.subscriptionStatus(forGroup: "PASS"))
        #expect(status.state == .inBillingRetryPeriod)
        #expect(!status.givesService)
        #expect(status.expirationReason == .billingError)
        #expect(state.currentEntitlements.isEmpty)
    }

    @Test func theGracePeriodGivesServiceUntilGracePeriodExpiresDate() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("210", bought: 0))
        try store.record(F.renewal("210", billingRetry: true, graceUntil: 36, intent: .billingError, signed: 30))

        let inside = try store.state(onDay: 33)
        let status = try #require(inside.subscriptionStatus(forGroup: "PASS"))
        #expect(status.state == .inGracePeriod)
        #expect(status.givesService)
        #expect(status.gracePeriodExpirationDate == F.day(36))
        #expect(inside.currentEntitlements.map(\.id) == ["210"])

        let after = try store.state(onDay: 36)
        #expect(after.subscriptionStatus(forGroup: "PASS")?.state == .inBillingRetryPeriod)
        #expect(after.currentEntitlements.isEmpty)
    }

    @Test func aGracePeriodDateIsIgnoredOnceTheRenewalInfoSaysTheRetryIsOver() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("211", bought: 0))
        try store.record(F.renewal("211", autoRenew: .off, billingRetry: false, graceUntil: 36, intent: .billingError, signed: 34))

        #expect(try store.state(onDay: 35).subscriptionStatus(forGroup: "PASS")?.state == .expired)
    }

    @Test func aRecoveredRenewalEndsTheGracePeriod() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("212", bought: 0))
        try store.record(F.renewal("212", billingRetry: true, graceUntil: 36, signed: 30))
        try store.record(F.pass("213", originalID: "212", bought: 32))
        try store.record(F.renewal("212", billingRetry: false, signed: 32))

        let status = try #require(try store.state(onDay: 33).subscriptionStatus(forGroup: "PASS"))
        #expect(status.state == .subscribed)
        #expect(status.transaction.id == "213")
        #expect(status.expirationDate == F.day(62))
    }

    @Test func aRefundedSubscriptionIsRevokedEvenWithinItsPeriod() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("214", bought: 0))
        try store.record(F.renewal("214", signed: 0))
        try store.record(F.pass("214", bought: 0, signed: 5, revoked: 5))

        let state = try store.state(onDay: 10)
        let status = try #require(state.subscriptionStatus(forGroup: "PASS"))
        #expect(status.state == .revoked)
        #expect(!status.givesService)
        #expect(state.currentEntitlements.isEmpty)
    }

    @Test func aRefundOfAnEarlierPeriodLeavesTheCurrentPeriodSubscribed() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("215", bought: 0), F.pass("216", originalID: "215", bought: 30))
        try store.record(F.pass("215", bought: 0, signed: 40, revoked: 40))

        let state = try store.state(onDay: 45)
        #expect(state.subscriptionStatus(forGroup: "PASS")?.state == .subscribed)
        #expect(state.currentEntitlements.map(\.id) == ["216"])
    }

    @Test func autoRenewOffKeepsServiceToTheEndOfThePeriodThenExpires() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("217", bought: 0))
        try store.record(F.renewal("217", autoRenew: .off, signed: 5))

        let during = try store.state(onDay: 20)
        let status = try #require(during.subscriptionStatus(forGroup: "PASS"))
        #expect(status.state == .subscribed)
        #expect(!status.willAutoRenew)
        #expect(status.expirationReason == nil)
        #expect(during.isEntitled(to: "pass.individual"))

        try store.record(F.renewal("217", autoRenew: .off, intent: .customerCancelled, signed: 30))
        let after = try #require(try store.state(onDay: 31).subscriptionStatus(forGroup: "PASS"))
        #expect(after.state == .expired)
        #expect(after.expirationReason == .customerCancelled)
    }

    @Test func aScheduledDowngradeShowsAsTheRenewalProductWhileTheCurrentPlanKeepsService() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("218", product: "pass.premium", bought: 0))
        try store.record(F.renewal("218", product: "pass.premium", renewsTo: "pass.individual", signed: 12))

        let state = try store.state(onDay: 15)
        let status = try #require(state.subscriptionStatus(forGroup: "PASS"))
        #expect(status.transaction.productID == "pass.premium")
        #expect(status.groupLevel == 1)
        #expect(status.autoRenewProductID == "pass.individual")
        #expect(status.scheduledRenewalProductID == "pass.individual")
        #expect(state.entitledProductIDs == ["pass.premium"])

        try store.record(F.renewal("218", product: "pass.premium", renewsTo: "pass.individual", autoRenew: .off, signed: 13))
        let cancelled = try #require(try store.state(onDay: 15).subscriptionStatus(forGroup: "PASS"))
        #expect(cancelled.autoRenewProductID == "pass.individual")
        #expect(cancelled.scheduledRenewalProductID == nil, "a subscription that does not renew switches to nothing")
    }

    @Test func theDowngradeTakesEffectAtTheNextRenewal() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("219", product: "pass.premium", bought: 0))
        try store.record(F.renewal("219", product: "pass.premium", renewsTo: "pass.individual", signed: 12))
        try store.record(F.pass("220", product: "pass.individual", originalID: "219", bought: 30))
        try store.record(F.renewal("219", product: "pass.individual", signed: 30))

        let state = try store.state(onDay: 31)
        let status = try #require(state.subscriptionStatus(forGroup: "PASS"))
        #expect(status.transaction.productID == "pass.individual")
        #expect(status.groupLevel == 3)
        #expect(status.scheduledRenewalProductID == nil)
        #expect(state.entitledProductIDs == ["pass.individual"])
    }

    @Test func aFamilySharedSubscriptionIsAnEntitlementAndSpeaksForTheGroupWhenItGivesService() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("221", product: "pass.individual", bought: 0))
        try store.record(F.pass("222", product: "pass.family", bought: 20, ownership: .familyShared))

        let state = try store.state(onDay: 40)
        let statuses = state.subscriptionStatuses(inGroup: "PASS")
        #expect(statuses.map(\.transaction.id) == ["222", "221"])
        #expect(statuses.map(\.state) == [.subscribed, .expired])
        #expect(statuses.first?.isFamilyShared == true)
        #expect(state.currentEntitlements.map(\.id) == ["222"])
    }

    @Test func ofTwoSubscriptionsGivingServiceTheHighestLevelSpeaksAndBothAreEntitlements() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("223", product: "pass.individual", bought: 5))
        try store.record(F.pass("224", product: "pass.premium", bought: 0, ownership: .familyShared))

        let state = try store.state(onDay: 10)
        #expect(state.subscriptionStatuses(inGroup: "PASS").map(\.transaction.id) == ["224", "223"])
        #expect(state.entitledProductIDs == ["pass.individual", "pass.premium"])
    }

    @Test func aTransactionWithoutGroupIdentifierTakesItsGroupFromTheCatalog() throws {
        let store = try EntitlementLedger()
        try store.record(F.transaction("225", product: "pass.family", type: .autoRenewableSubscription, bought: 0, expires: 30))
        try store.record(F.transaction("226", product: "unknown.plan", type: .autoRenewableSubscription, bought: 0, expires: 30))

        let state = try store.state(onDay: 1)
        #expect(state.subscriptionStatus(forGroup: "PASS")?.transaction.id == "225")
        #expect(state.subscriptionStatuses.keys.sorted() == ["PASS"], "a subscription with no known group has no status")
        #expect(state.entitledProductIDs == ["pass.family"])
    }

    @Test func withoutACatalogTheStatusComesFromTheTransactionsAloneWithoutLevels() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("227", bought: 0))
        let state = try store.ledger.customerState(customerID: "ada", at: F.day(1))
        let status = try #require(state.subscriptionStatus(forGroup: "PASS"))
        #expect(status.state == .subscribed)
        #expect(status.groupLevel == nil)
        #expect(state.introOfferEligibility == ["PASS": false])
    }

    @Test func theLedgerAnswersStatusQueriesDirectly() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("228", bought: 0), F.transaction("229", product: "feeder.golden", type: .nonConsumable, bought: 1))
        let statuses = try store.ledger.subscriptionStatuses(
            customerID: "ada", groupID: "PASS", catalog: F.catalog, at: F.day(2))
        #expect(statuses.map(\.state) == [.subscribed])
        #expect(try store.ledger.currentEntitlements(customerID: "ada", catalog: F.catalog, at: F.day(2)).map(\.id) == ["229", "228"])
        #expect(try store.ledger.currentEntitlements(customerID: "ada", catalog: F.catalog, at: F.day(40)).map(\.id) == ["229"])
    }

    @Test(arguments: RenewalState.allCases)
    func onlySubscribedAndGracePeriodGiveService(state: RenewalState) {
        #expect(state.givesService == (state == .subscribed || state == .inGracePeriod))
    }
}
