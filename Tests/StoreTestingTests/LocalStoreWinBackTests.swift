import Foundation
@testable import StoreCore
@testable import StoreTesting
import Testing

@Suite struct LocalStoreWinBackTests {
    /// Two win-back offers of `pass.premium`: one StoreKit Testing marks eligible, one it does not.
    static let offers = #"""
    [{"displayPrice": "1.99", "internalID": "WB1", "numberOfPeriods": 2, "offerID": "premium.back",
      "paymentMode": "payAsYouGo", "referenceName": "Welcome back", "subscriptionPeriod": "P1M"},
     {"eligibility": "Ineligible", "internalID": "WB2", "offerID": "premium.never", "paymentMode": "free",
      "referenceName": "Never offered", "subscriptionPeriod": "P1M"}]
    """#

    /// Buys Premium for `customer`, turns renewal off and lets the period end.
    private func lapse(_ harness: StoreHarness, _ customer: String = "ana") throws -> JWSTransactionDecodedPayload {
        let first = try harness.buy("pass.premium", customer)
        try harness.store.setAutoRenew(false, customer: customer, groupID: "G1")
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        return first
    }

    @Test func aLapsedSubscriptionsRenewalInfoNamesTheEligibleOffersAndTheLedgerKeepsThem() throws {
        let harness = try StoreHarness(premiumWinBackOffers: Self.offers)
        let first = try harness.buy("pass.premium")
        let active = try #require(try harness.ledger.renewalInfo(originalTransactionID: first.transactionId!))
        #expect(active.eligibleWinBackOfferIDs.isEmpty)

        try harness.store.setAutoRenew(false, customer: "ana", groupID: "G1")
        let expired = try harness.store.advance(by: StoreHarness.duration("P1M"))
        #expect(expired.map(\.summary) == ["EXPIRED/VOLUNTARY"])
        #expect(expired.first?.renewalInfo?.eligibleWinBackOfferIds == ["premium.back"])
        let stored = try #require(try harness.ledger.renewalInfo(originalTransactionID: first.transactionId!))
        #expect(stored.eligibleWinBackOfferIDs == ["premium.back"])
    }

    @Test func redeemingAWinBackOfferResubscribesWithOfferTypeFour() throws {
        let harness = try StoreHarness(premiumWinBackOffers: Self.offers)
        let first = try lapse(harness)
        let sequence = try harness.lastSequence()
        let back = try harness.buy("pass.premium", options: [.winBackOffer(offerID: "premium.back")])
        #expect(back.offerType == .winBackOffer)
        #expect(back.offerIdentifier == "premium.back")
        #expect(back.price == 1990)
        #expect(back.originalTransactionId == first.transactionId)
        #expect(try harness.sent(after: sequence) == ["SUBSCRIBED/RESUBSCRIBE"])
        let granted = try #require(try harness.ledgerTransactions().last)
        #expect(granted.offerType == .winBackOffer)
        #expect(granted.isFinished)
        let renewalInfo = try #require(try harness.ledger.renewalInfo(originalTransactionID: first.transactionId!))
        #expect(renewalInfo.eligibleWinBackOfferIDs.isEmpty)
    }

    @Test func aWinBackOfferIsRefusedBeforeTheLapseAndWhenMarkedIneligible() throws {
        let harness = try StoreHarness(premiumWinBackOffers: Self.offers)
        #expect(throws: LocalStoreError.winBackOfferNotEligible(offerID: "premium.back", productID: "pass.premium", customerID: "ana",
                                                               why: "they never subscribed in the group", eligible: [])) {
            try harness.store.purchase("pass.premium", customer: "ana", options: [.winBackOffer(offerID: "premium.back")])
        }
        try harness.buy("pass.premium")
        let before = try harness.footprint()
        #expect(throws: LocalStoreError.winBackOfferNotEligible(
            offerID: "premium.back", productID: "pass.premium", customerID: "ana",
            why: "their subscription is active; a win-back offer is for one that lapsed", eligible: [])) {
            try harness.store.purchase("pass.premium", customer: "ana", options: [.winBackOffer(offerID: "premium.back")])
        }
        #expect(try harness.footprint() == before)

        try harness.store.setAutoRenew(false, customer: "ana", groupID: "G1")
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        #expect(throws: LocalStoreError.winBackOfferNotEligible(offerID: "premium.never", productID: "pass.premium", customerID: "ana",
                                                               why: "the offer's eligibility does not admit them now",
                                                               eligible: ["premium.back"])) {
            try harness.store.purchase("pass.premium", customer: "ana", options: [.winBackOffer(offerID: "premium.never")])
        }
        #expect(throws: LocalStoreError.unknownWinBackOffer(offerID: "premium.promo", productID: "pass.premium",
                                                           known: ["premium.back", "premium.never"])) {
            try harness.store.purchase("pass.premium", customer: "ana", options: [.winBackOffer(offerID: "premium.promo")])
        }
        #expect(throws: LocalStoreError.conflictingOffers) {
            try harness.store.purchase("pass.premium", customer: "ana",
                                       options: [.winBackOffer(offerID: "premium.back"), .promotionalOffer(offerID: "premium.promo")])
        }
    }

    @Test func appStoreConnectsCriteriaGateTheOfferByMonthsPaidAndSinceTheLapse() throws {
        let harness = try StoreHarness(premiumWinBackOffers: Self.offers)
        try harness.store.updateSettings { $0.winBackCriteria = Product.WinBackEligibility(paidMonths: 2) }
        let first = try lapse(harness)
        // Only the free week before the lapse: nothing paid.
        #expect(try harness.ledger.renewalInfo(originalTransactionID: first.transactionId!)?.eligibleWinBackOfferIDs == [])
        // The free week, then two paid months before the lapse.
        let paid = try harness.buy("pass.premium", "ben")
        try harness.store.advance(by: StoreHarness.duration("P1W"))
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        try harness.store.setAutoRenew(false, customer: "ben", groupID: "G1")
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        #expect(try harness.ledger.renewalInfo(originalTransactionID: paid.transactionId!)?.eligibleWinBackOfferIDs == ["premium.back"])
        try harness.store.updateSettings { $0.winBackCriteria.paidMonths = 3 }
        #expect(try harness.ledger.renewalInfo(originalTransactionID: paid.transactionId!)?.eligibleWinBackOfferIDs == [])

        let other = try StoreHarness(premiumWinBackOffers: Self.offers)
        try other.store.updateSettings { $0.winBackCriteria = Product.WinBackEligibility(monthsSinceLapse: 2...6) }
        let lapsed = try lapse(other)
        #expect(try other.ledger.renewalInfo(originalTransactionID: lapsed.transactionId!)?.eligibleWinBackOfferIDs == [])
        try other.store.advance(by: StoreHarness.duration("P2M"))
        let refreshed = try other.store.update()
        #expect(refreshed.isEmpty, "eligibility changing sends no notification")
        #expect(try other.ledger.renewalInfo(originalTransactionID: lapsed.transactionId!)?.eligibleWinBackOfferIDs == ["premium.back"])
        try other.store.advance(by: StoreHarness.duration("P6M"))
        #expect(try other.ledger.renewalInfo(originalTransactionID: lapsed.transactionId!)?.eligibleWinBackOfferIDs == [])
    }

    @Test func changingTheCriteriaSignsTheRenewalInfoAgainAtOnce() throws {
        let harness = try StoreHarness(premiumWinBackOffers: Self.offers)
        try harness.store.updateSettings { $0.winBackCriteria = Product.WinBackEligibility(monthsSinceLapse: 2...6) }
        // Ana has only the free week; Ben the free week and two paid months.
        let first = try harness.buy("pass.premium")
        let paid = try harness.buy("pass.premium", "ben")
        try harness.store.setAutoRenew(false, customer: "ana", groupID: "G1")
        try harness.store.advance(by: StoreHarness.duration("P1W"))
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        try harness.store.setAutoRenew(false, customer: "ben", groupID: "G1")
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        func offers(_ subscription: JWSTransactionDecodedPayload) throws -> [String]? {
            try harness.ledger.renewalInfo(originalTransactionID: subscription.transactionId!)?.eligibleWinBackOfferIDs
        }
        #expect(try offers(first) == [] && offers(paid) == [])
        let sequence = try harness.lastSequence()
        try harness.store.resetSettings()
        #expect(try offers(first) == ["premium.back"] && offers(paid) == ["premium.back"])
        try harness.store.updateSettings { $0.winBackCriteria.paidMonths = 1 }
        #expect(try offers(first) == [], "only the free week was bought")
        #expect(try offers(paid) == ["premium.back"], "two months were paid")
        try harness.store.updateSettings { $0.winBackCriteria.paidMonths = 3 }
        #expect(try offers(paid) == [])
        #expect(try harness.lastSequence() == sequence, "no notification")
    }

    @Test func underAppStoreConnectsCriteriaAnOfferWithoutAWaitIsRedeemedOnce() throws {
        let harness = try StoreHarness(premiumWinBackOffers: Self.offers)
        try harness.store.updateSettings { $0.winBackCriteria = Product.WinBackEligibility(monthsSinceLapse: 1...24) }
        let first = try lapse(harness)
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        try harness.buy("pass.premium", options: [.winBackOffer(offerID: "premium.back")])
        try harness.store.setAutoRenew(false, customer: "ana", groupID: "G1")
        try harness.store.advance(by: StoreHarness.duration("P4M"))
        #expect(try harness.ledger.renewalInfo(originalTransactionID: first.transactionId!)?.eligibleWinBackOfferIDs == [])

        try harness.store.updateSettings { $0.winBackCriteria.monthsBetweenOffers = 2 }
        try harness.store.advance(by: StoreHarness.duration("P1D"))
        #expect(try harness.ledger.renewalInfo(originalTransactionID: first.transactionId!)?.eligibleWinBackOfferIDs == ["premium.back"])
    }

    @Test func theCriteriaSettingsPersistAndReset() throws {
        let harness = try StoreHarness(premiumWinBackOffers: Self.offers)
        try harness.store.updateSettings {
            $0.winBackCriteria = Product.WinBackEligibility(paidMonths: 3, monthsSinceLapse: 2...12, monthsBetweenOffers: 6)
        }
        let (_, reopened) = try harness.reopened()
        #expect(try reopened.settings().winBackCriteria == Product.WinBackEligibility(paidMonths: 3, monthsSinceLapse: 2...12,
                                                                                      monthsBetweenOffers: 6))
        try reopened.resetSettings()
        #expect(try reopened.settings().winBackCriteria == Product.WinBackEligibility())
    }
}
