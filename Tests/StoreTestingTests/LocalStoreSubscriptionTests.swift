import Foundation
@testable import StoreCore
@testable import StoreTesting
import Testing

@Suite struct LocalStoreSubscriptionTests {
    @Test func aNewSubscriberGetsTheIntroductoryOfferAndRenewsAsTheClockPasses() throws {
        let harness = try StoreHarness()
        let first = try harness.buy("pass.premium")
        #expect(first.type == .autoRenewableSubscription)
        #expect(first.subscriptionGroupIdentifier == "G1")
        #expect(first.offerType == .introductoryOffer)
        #expect(first.offerDiscountType == .freeTrial)
        #expect(first.offerPeriod == "P1W")
        #expect(first.offerIdentifier == nil)
        #expect(first.price == 0)
        #expect(first.expiresDate == StoreHarness.date("2025-02-07T00:00:00Z"))
        #expect(first.webOrderLineItemId != nil)
        #expect(try harness.sent() == ["SUBSCRIBED/INITIAL_BUY"])
        let subscribed = try #require(try harness.store.notifications().first)
        #expect(subscribed.payload.data?.status == .active)
        #expect(subscribed.renewalInfo?.autoRenewStatus == .on)
        #expect(subscribed.renewalInfo?.renewalDate == first.expiresDate)
        #expect(subscribed.renewalInfo?.renewalPrice == 9990)

        let renewals = try harness.store.advance(by: StoreHarness.duration("P2M"))
        #expect(renewals.map(\.summary) == ["DID_RENEW", "DID_RENEW"])
        let ledger = try harness.ledgerTransactions()
        #expect(ledger.count == 3)
        #expect(Set(ledger.map(\.originalID)) == [first.transactionId!])
        #expect(ledger.map(\.purchaseDate) == [StoreHarness.start, StoreHarness.date("2025-02-07T00:00:00Z"),
                                               StoreHarness.date("2025-03-07T00:00:00Z")])
        #expect(ledger.map(\.expirationDate) == [StoreHarness.date("2025-02-07T00:00:00Z"),
                                                 StoreHarness.date("2025-03-07T00:00:00Z"),
                                                 StoreHarness.date("2025-04-07T00:00:00Z")])
        #expect(ledger.allSatisfy { $0.grantState == .granted })
        let renewed = try renewals.map { try #require($0.transaction) }
        #expect(renewed.allSatisfy { $0.transactionReason == .renewal && $0.offerType == nil && $0.price == 9990 })
        #expect(Set(([first] + renewed).compactMap(\.webOrderLineItemId)).count == 3)
        #expect(try harness.ledger.balances(customerID: "ana") == ["star": 3])
        #expect(try harness.store.now() == StoreHarness.date("2025-03-31T00:00:00Z"))
    }

    @Test func turningAutoRenewOffEndsTheSubscriptionAtItsExpirationDate() throws {
        let harness = try StoreHarness()
        let first = try harness.buy("pass.premium")
        #expect(try harness.store.setAutoRenew(false, customer: "ana", groupID: "G1").map(\.summary)
                == ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED"])
        #expect(try harness.store.setAutoRenew(false, customer: "ana", groupID: "G1").isEmpty)
        #expect(try harness.ledger.renewalInfo(originalTransactionID: first.transactionId!)?.autoRenewStatus == .off)

        let expired = try harness.store.advance(by: StoreHarness.duration("P1M"))
        #expect(expired.map(\.summary) == ["EXPIRED/VOLUNTARY"])
        let notification = try #require(expired.first)
        #expect(notification.payload.data?.status == .expired)
        #expect(notification.renewalInfo?.expirationIntent == .customerCancelled)
        #expect(notification.payload.signedDate! >= first.expiresDate!)
        #expect(try harness.ledgerTransactions().count == 1)
        #expect(try harness.store.subscription(customerID: "ana", groupID: "G1")?.state == .expired)

        #expect(throws: LocalStoreError.subscriptionNotActive(customerID: "ana", groupID: "G1", state: .expired)) {
            try harness.store.setAutoRenew(true, customer: "ana", groupID: "G1")
        }
    }

    @Test func turningAutoRenewBackOnKeepsTheSubscriptionRenewing() throws {
        let harness = try StoreHarness()
        try harness.buy("pass.premium")
        try harness.store.setAutoRenew(false, customer: "ana", groupID: "G1")
        #expect(try harness.store.setAutoRenew(true, customer: "ana", groupID: "G1").map(\.summary)
                == ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED"])
        #expect(try harness.store.advance(by: StoreHarness.duration("P7D")).map(\.summary) == ["DID_RENEW"])
    }

    @Test func buyingTheSamePlanAgainTurnsAutoRenewBackOn() throws {
        let harness = try StoreHarness()
        let first = try harness.buy("pass.premium")
        try harness.store.setAutoRenew(false, customer: "ana", groupID: "G1")
        let sequence = try harness.lastSequence()
        let again = try harness.buy("pass.premium")
        #expect(again.transactionId == first.transactionId)
        #expect(try harness.sent(after: sequence) == ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED"])
    }

    @Test func aLapsedSubscriberResubscribesUnderTheSameOriginalTransactionWithoutAnotherIntroductoryOffer() throws {
        let harness = try StoreHarness()
        let first = try harness.buy("pass.premium")
        try harness.store.setAutoRenew(false, customer: "ana", groupID: "G1")
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        #expect(try harness.store.isEligibleForIntroductoryOffer(customerID: "ana", groupID: "G1") == false)
        #expect(try harness.store.isEligibleForIntroductoryOffer(customerID: "ana", groupID: "W1"))

        let sequence = try harness.lastSequence()
        let again = try harness.buy("pass.premium")
        #expect(try harness.sent(after: sequence) == ["SUBSCRIBED/RESUBSCRIBE"])
        #expect(again.originalTransactionId == first.transactionId)
        #expect(again.offerType == nil)
        #expect(again.price == 9990)
        #expect(again.purchaseDate == StoreHarness.date("2025-02-28T00:00:00Z"))
        #expect(again.expiresDate == StoreHarness.date("2025-03-28T00:00:00Z"))
        #expect(again.originalPurchaseDate == StoreHarness.start)
        let renewalInfo = try #require(try harness.ledger.renewalInfo(originalTransactionID: first.transactionId!))
        #expect(renewalInfo.autoRenewStatus == .on)
        #expect(renewalInfo.expirationReason == nil)
        #expect(renewalInfo.recentSubscriptionStartDate == StoreHarness.start)
    }

    @Test func theIntroductoryOfferIsForCustomersNewToTheGroup() throws {
        let harness = try StoreHarness()
        #expect(try harness.store.isEligibleForIntroductoryOffer(customerID: "bob", groupID: "G1"))
        try harness.buy("pass.basic", "bob")
        #expect(try harness.store.isEligibleForIntroductoryOffer(customerID: "bob", groupID: "G1") == false)
        #expect(try harness.store.isEligibleForIntroductoryOffer(customerID: "bob", groupID: "W1"))
        try harness.store.expireSubscription(customer: "bob", groupID: "G1")
        #expect(try harness.buy("pass.premium", "bob").offerType == nil)

        let refunded = try harness.buy("pass.basic", "cy")
        try harness.store.refund(transactionID: refunded.transactionId!)
        #expect(try harness.buy("pass.premium", "cy").offerType == nil)
    }

    @Test func aFamilySharedSubscriptionDoesNotUseUpTheIntroductoryOffer() throws {
        let harness = try StoreHarness()
        try harness.store.joinFamily(customer: "ana", familyID: "house")
        try harness.store.joinFamily(customer: "bea", familyID: "house")
        try harness.buy("pass.family", "ana")
        #expect(try harness.store.subscriptions(customerID: "bea").first?.isFamilyShared == true)
        #expect(try harness.store.isEligibleForIntroductoryOffer(customerID: "bea", groupID: "G1"))
        #expect(try harness.buy("pass.premium", "bea").offerType == .introductoryOffer)
    }

    @Test func expiringASubscriptionEndsItNowAndSignsTheLatestTransactionAgain() throws {
        let harness = try StoreHarness()
        let first = try harness.buy("pass.premium")
        try harness.store.advance(by: StoreHarness.duration("P2D"))
        let expired = try harness.store.expireSubscription(customer: "ana", groupID: "G1")
        #expect(expired.map(\.summary) == ["EXPIRED/VOLUNTARY"])
        let now = StoreHarness.date("2025-02-02T00:00:00Z")
        #expect(expired.first?.transaction?.expiresDate == now)
        let stored = try #require(try harness.ledger.transaction(id: first.transactionId!))
        #expect(stored.expirationDate == now)
        #expect(try harness.ledger.versions(ofTransaction: first.transactionId!).count == 2)
        #expect(try harness.store.advance(by: StoreHarness.duration("P2M")).isEmpty)
        #expect(throws: LocalStoreError.subscriptionNotActive(customerID: "ana", groupID: "G1", state: .expired)) {
            try harness.store.expireSubscription(customer: "ana", groupID: "G1")
        }
    }

    @Test func forcingARenewalStartsTheNextPeriodNow() throws {
        let harness = try StoreHarness()
        let first = try harness.buy("pass.premium")
        try harness.store.advance(by: StoreHarness.duration("P3D"))
        let renewed = try harness.store.forceRenewal(customer: "ana", groupID: "G1")
        #expect(renewed.map(\.summary) == ["DID_RENEW"])
        let transaction = try #require(renewed.first?.transaction)
        #expect(transaction.originalTransactionId == first.transactionId)
        #expect(transaction.purchaseDate == StoreHarness.date("2025-02-03T00:00:00Z"))
        #expect(transaction.expiresDate == StoreHarness.date("2025-03-03T00:00:00Z"))
        #expect(transaction.transactionReason == .renewal)

        try harness.store.setAutoRenew(false, customer: "ana", groupID: "G1")
        #expect(throws: LocalStoreError.autoRenewIsOff(customerID: "ana", groupID: "G1")) {
            try harness.store.forceRenewal(customer: "ana", groupID: "G1")
        }
    }

    @Test func catchUpRenewsOncePerElapsedPeriodAndFollowsMonthEnds() throws {
        let harness = try StoreHarness()
        try harness.buy("pass.basic")
        let renewals = try harness.store.advance(by: StoreHarness.duration("P6M"))
        #expect(renewals.count == 6)
        let expirations = try harness.ledgerTransactions().map(\.expirationDate)
        #expect(expirations.first == StoreHarness.date("2025-02-28T00:00:00Z"))
        #expect(expirations.last == StoreHarness.date("2025-08-28T00:00:00Z"))
        let signedDates = try harness.store.notifications().map { $0.payload.signedDate! }
        #expect(signedDates == signedDates.sorted())
    }

    @Test func subscriptionOperationsNeedAKnownGroupAndASubscription() throws {
        let harness = try StoreHarness()
        try harness.buy("coins")
        let before = try harness.footprint()
        #expect(throws: LocalStoreError.unknownSubscriptionGroup("G9")) {
            try harness.store.forceRenewal(customer: "ana", groupID: "G9")
        }
        #expect(throws: LocalStoreError.noSubscription(customerID: "ana", groupID: "G1")) {
            try harness.store.setAutoRenew(false, customer: "ana", groupID: "G1")
        }
        #expect(throws: LocalStoreError.noSubscription(customerID: "ana", groupID: "W1")) {
            try harness.store.expireSubscription(customer: "ana", groupID: "W1")
        }
        #expect(throws: LocalStoreError.negativeDuration(StoreDuration(days: -1))) {
            try harness.store.advance(by: StoreDuration(days: -1))
        }
        #expect(try harness.footprint() == before)
        #expect(try harness.store.now() == StoreHarness.start)
    }
}
