import Foundation
@testable import StoreCore
@testable import StoreTesting
import Testing

@Suite struct LocalStoreOfferTests {
    @Test func aPromotionalOfferBillsItsPeriodsThenTheRegularPrice() throws {
        let harness = try StoreHarness()
        let first = try harness.buy("pass.premium", "bob", options: [.promotionalOffer(offerID: "premium.promo")])
        #expect(first.offerType == .promotionalOffer)
        #expect(first.offerIdentifier == "premium.promo")
        #expect(first.offerDiscountType == .payAsYouGo)
        #expect(first.offerPeriod == "P1M")
        #expect(first.price == 4990)
        #expect(first.expiresDate == StoreHarness.date("2025-02-28T00:00:00Z"))
        #expect(try harness.sent() == ["SUBSCRIBED/INITIAL_BUY"])
        #expect(try harness.store.isEligibleForIntroductoryOffer(customerID: "bob", groupID: "G1") == false)
        let pending = try #require(try harness.ledger.renewalInfo(originalTransactionID: first.transactionId!))
        #expect(pending.offerType == .promotionalOffer)
        #expect(pending.offerID == "premium.promo")

        let renewals = try harness.store.advance(by: StoreHarness.duration("P3M")).compactMap(\.transaction)
        #expect(renewals.map(\.offerType) == [.promotionalOffer, .promotionalOffer, nil])
        #expect(renewals.map(\.price) == [4990, 4990, 9990])
        #expect(try harness.ledger.renewalInfo(originalTransactionID: first.transactionId!)?.offerType == nil)
    }

    @Test func aPromotionalOfferForTheCurrentPlanAppliesAtTheNextRenewal() throws {
        let harness = try StoreHarness()
        let first = try harness.buy("pass.premium")
        let sequence = try harness.lastSequence()
        let returned = try harness.buy("pass.premium", options: [.promotionalOffer(offerID: "premium.promo")])
        #expect(returned.transactionId == first.transactionId)
        let sent = try harness.store.notifications(after: sequence)
        #expect(sent.map(\.summary) == ["OFFER_REDEEMED"])
        #expect(sent.first?.renewalInfo?.offerIdentifier == "premium.promo")
        #expect(sent.first?.renewalInfo?.offerDiscountType == .payAsYouGo)
        #expect(sent.first?.renewalInfo?.renewalPrice == 4990)
        let renewal = try #require(try harness.store.advance(by: StoreHarness.duration("P1W")).first?.transaction)
        #expect(renewal.offerType == .promotionalOffer)
        #expect(renewal.offerIdentifier == "premium.promo")
    }

    @Test func aPromotionalOfferWithAnUpgradeIsRedeemedAtOnce() throws {
        let harness = try StoreHarness()
        try harness.buy("pass.family")
        let sequence = try harness.lastSequence()
        let premium = try harness.buy("pass.premium", options: [.promotionalOffer(offerID: "premium.promo")])
        #expect(try harness.sent(after: sequence) == ["OFFER_REDEEMED/UPGRADE"])
        #expect(premium.offerType == .promotionalOffer)
    }

    @Test func anOfferCodeRedeemsTheSubscriptionsCodeOffer() throws {
        let harness = try StoreHarness()
        let byAnyCode = try harness.buy("pass.basic", "carol", options: [.offerCode("SPRING-2025")])
        #expect(byAnyCode.offerType == .offerCode)
        #expect(byAnyCode.offerIdentifier == "Free month")
        #expect(byAnyCode.offerDiscountType == .freeTrial)
        #expect(byAnyCode.price == 0)
        #expect(try harness.sent(customer: "carol") == ["SUBSCRIBED/INITIAL_BUY"])
        let byName = try harness.buy("pass.basic", "dan", options: [.offerCode("free month")])
        #expect(byName.offerIdentifier == "Free month")
    }

    @Test func anOfferCodeIsRedeemedOnlyByEligibleCustomers() throws {
        let harness = try StoreHarness()
        try harness.buy("pass.premium")
        let before = try harness.footprint()
        #expect(throws: LocalStoreError.offerCodeNotEligible(code: "X", productID: "pass.basic")) {
            try harness.store.purchase("pass.basic", customer: "ana", options: [.offerCode("X")])
        }
        #expect(try harness.footprint() == before)
        try harness.store.expireSubscription(customer: "ana", groupID: "G1")
        let sequence = try harness.lastSequence()
        let resubscribed = try harness.buy("pass.basic", options: [.offerCode("X")])
        #expect(resubscribed.offerType == .offerCode)
        #expect(try harness.sent(after: sequence) == ["SUBSCRIBED/RESUBSCRIBE"])
    }
}
