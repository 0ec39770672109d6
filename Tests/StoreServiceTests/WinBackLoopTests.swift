import AppStoreServerAPI
import Foundation
import StoreCore
import StoreService
import StoreTesting
import Testing

/// The win-back loop on one machine: the local store lets ana's Premium pass lapse and tells the
/// service, whose storefront shows the card the policy picks; the client reads the same offer
/// in the subscription's statuses; the redemption is granted like any purchase.
@Suite struct WinBackLoopTests {
    @Test func aLapsedPremiumPassBringsTheWinBackCardAndItsRedemptionIsGranted() async throws {
        // The store's clock starts 40 days ago, so the pass lapses before the service's now.
        let loop = try ServiceLoop(clock: .manual(startingAt: Date().addingTimeInterval(-40 * 86_400)))
        let before = try loop.store.notifications().count
        guard case .success(let pass) = try loop.store.purchase("pass.premium", customer: "ana", options: [.appAccountToken(loop.token)]),
              let originalID = pass.payload.originalTransactionId else { throw ServiceLoop.Failure() }
        try loop.store.setAutoRenew(false, customer: "ana", groupID: "6F3A93AB")
        try loop.store.advance(by: StoreDuration(iso8601: "P1M")!)
        try loop.deliver(try loop.store.notifications(after: before))

        let lapsed = try loop.service.storefrontPlan(customerID: "ana", placement: "home")
        let card = try #require(lapsed.subscriptionStores.first?.winBack)
        #expect(card.offerID == "premium.welcome.back")
        #expect(card.productID == "pass.premium")

        let statuses = try await loop.client.subscriptionStatuses(originalID)
        let renewal = try #require(statuses.groups.first?.subscriptions.first?.renewalInfo.payload)
        #expect(renewal.eligibleWinBackOfferIds == ["premium.welcome.back"])

        let sequence = try loop.store.notifications().count
        guard case .success(let back) = try loop.store.purchase("pass.premium", customer: "ana", options: [
            .appAccountToken(loop.token), .winBackOffer(offerID: card.offerID),
        ]) else { throw ServiceLoop.Failure() }
        try loop.deliver(try loop.store.notifications(after: sequence))
        let stored = try #require(try loop.service.ledger.transaction(id: back.payload.transactionId ?? ""))
        #expect(stored.offerType == .winBackOffer)
        #expect(stored.isFinished)
        let entitlements = try loop.service.answer(.entitlements(customerID: "ana"))
        #expect("\(entitlements)".contains("rare_birds"), "\(entitlements)")
        #expect(try loop.service.storefrontPlan(customerID: "ana", placement: "home").subscriptionStores.first?.winBack == nil)
    }
}
