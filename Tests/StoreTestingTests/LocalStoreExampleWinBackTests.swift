import Foundation
@testable import StoreCore
import SQLiteLedger
@testable import StoreTesting
import Testing
import TestPrerequisites

/// The Backyard Birds example's win-back offer, in the local store its catalog makes: a lapsed
/// Premium watcher's renewal info names the offer, and redeeming it resubscribes at its price.
@Suite struct LocalStoreExampleWinBackTests {
    /// A local store over the Backyard Birds catalog and a new SQLite ledger, on a manual clock.
    static func backyardBirds() throws -> (store: LocalStore, ledger: Ledger) {
        let directory = try TestFolders.make("example-win-back")
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let catalog = try Catalog(contentsOf: packageRoot.appending(path: "Examples/BackyardBirds/Products.storekit"))
        let ledger = try Ledger(path: directory.appending(path: "ledger.sqlite").path)
        let store = try LocalStore(catalog: catalog, authority: StoreHarness.authority, ledger: ledger,
                                   state: try Database(path: directory.appending(path: "store.sqlite").path),
                                   configuration: LocalStore.Configuration(bundleID: StoreHarness.bundleID,
                                                                           clock: .manual(startingAt: StoreHarness.start)),
                                   decide: StoreHarness.grants)
        return (store, ledger)
    }

    @Test func aLapsedPremiumWatcherRedeemsTheWinBackOffer() throws {
        let (store, ledger) = try Self.backyardBirds()
        guard case .success(let first) = try store.purchase("pass.premium", customer: "ana") else {
            throw HarnessFailure("the purchase of pass.premium did not succeed")
        }
        try store.setAutoRenew(false, customer: "ana", groupID: "6F3A93AB")
        try store.advance(by: StoreHarness.duration("P1M"))
        let lapsed = try #require(try store.subscriptions(customerID: "ana").first)
        #expect(lapsed.state == .expired)
        let originalTransactionID = try #require(first.payload.transactionId)
        let renewalInfo = try #require(try ledger.renewalInfo(originalTransactionID: originalTransactionID))
        #expect(renewalInfo.eligibleWinBackOfferIDs == ["premium.welcome.back"])

        guard case .success(let back) = try store.purchase("pass.premium", customer: "ana",
                                                           options: [.winBackOffer(offerID: "premium.welcome.back")]) else {
            throw HarnessFailure("the win-back purchase did not succeed")
        }
        #expect(back.payload.offerType == .winBackOffer)
        #expect(back.payload.offerType?.rawValue == 4)
        #expect(back.payload.offerIdentifier == "premium.welcome.back")
        #expect(back.payload.price == 2990)
        let again = #expect(throws: LocalStoreError.self) {
            try store.purchase("pass.premium", customer: "ana", options: [.winBackOffer(offerID: "premium.welcome.back")])
        }
        #expect(again?.description.contains("ana may not redeem the win-back offer 'premium.welcome.back' of 'pass.premium': "
                                            + "their subscription is active") == true, "\(String(describing: again))")
    }
}
