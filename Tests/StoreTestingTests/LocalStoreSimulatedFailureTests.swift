import Foundation
@testable import StoreCore
@testable import StoreTesting
import Testing

@Suite struct LocalStoreSimulatedFailureTests {
    static func slot(_ name: String, enabled: Bool) -> String {
        #"{"current": {"index": 4, "type": "generic"}, "enabled": \#(enabled), "name": "\#(name)"}"#
    }

    static let purchaseSlotOn = #"{"_storeKitErrors": [\#(slot("Load Products", enabled: false)), \#(slot("Purchase", enabled: true))]}"#

    @Test func anEnabledPurchaseSlotMakesPurchasesFailAndChangesNothing() throws {
        let harness = try StoreHarness(settings: Self.purchaseSlotOn)
        #expect(try harness.store.settings().simulatedFailures == [.purchase])
        #expect(throws: LocalStoreError.simulatedFailure(.purchase)) {
            try harness.store.purchase("coins", customer: "ana")
        }
        #expect(throws: LocalStoreError.simulatedFailure(.purchase)) {
            try harness.store.purchase("pass.premium", customer: "ana", options: [.simulatesUserCancellation])
        }
        #expect(throws: LocalStoreError.simulatedFailure(.purchase)) {
            try harness.store.purchase("pass.premium", customer: "ana", options: [.simulatesAskToBuy(true)])
        }
        #expect(try harness.store.askToBuyRequests().isEmpty)
        #expect(try harness.store.transactions().isEmpty)
        #expect(try harness.sent().isEmpty)
        #expect(try harness.ledger.customers().isEmpty)

        try harness.store.updateSettings { $0.simulatedFailures.remove(.purchase) }
        #expect(try harness.buy("coins").productId == "coins")
    }

    @Test func disabledSlotsFailNothing() throws {
        let settings = #"{"_storeKitErrors": [\#(Self.slot("Purchase", enabled: false)), \#(Self.slot("App Store Sync", enabled: false))]}"#
        let harness = try StoreHarness(settings: settings)
        #expect(try harness.store.settings().simulatedFailures.isEmpty)
        try harness.buy("coins")
        #expect(try harness.store.sync(customer: "ana").count == 1)
    }

    @Test func failTransactionsEnabledMakesPurchasesFail() throws {
        let harness = try StoreHarness(settings: #"{"_failTransactionsEnabled": true}"#)
        #expect(try harness.store.settings().simulatedFailures == [.purchase])
        #expect(throws: LocalStoreError.simulatedFailure(.purchase)) {
            try harness.store.purchase("recipe.pro", customer: "ana")
        }
    }

    @Test func anOfferCodeRedeemFailureFailsOnlyPurchasesRedeemingACode() throws {
        let harness = try StoreHarness()
        try harness.store.updateSettings { $0.simulatedFailures.insert(.offerCodeRedeemSheet) }
        #expect(throws: LocalStoreError.simulatedFailure(.offerCodeRedeemSheet)) {
            try harness.store.purchase("pass.basic", customer: "ana", options: [.offerCode("Free month")])
        }
        #expect(try harness.sent().isEmpty)
        #expect(try harness.buy("pass.basic").offerType == nil)
    }

    @Test func aSyncFailureDeliversNothing() throws {
        let harness = try StoreHarness()
        try harness.buy("coins")
        let before = try harness.lastSequence()
        try harness.store.updateSettings { $0.simulatedFailures.insert(.appStoreSync) }
        #expect(throws: LocalStoreError.simulatedFailure(.appStoreSync)) {
            try harness.store.sync(customer: "ana")
        }
        #expect(try harness.lastSequence() == before)
        try harness.store.updateSettings { $0.simulatedFailures.remove(.appStoreSync) }
        #expect(try harness.store.sync(customer: "ana").map(\.payload.productId) == ["coins"])
    }

    @Test func overridesPersistAcrossOpeningsUntilReset() throws {
        let harness = try StoreHarness(settings: Self.purchaseSlotOn)
        try harness.store.updateSettings {
            $0.simulatedFailures.remove(.purchase)
            $0.simulatedFailures.insert(.appStoreSync)
        }
        let (_, reopened) = try harness.reopened()
        #expect(try reopened.settings().simulatedFailures == [.appStoreSync])
        try reopened.resetSettings()
        #expect(try harness.store.settings().simulatedFailures == [.purchase])
    }

    @Test func theRefusalNamesTheAPI() {
        #expect(LocalStoreError.simulatedFailure(.appStoreSync).description
                == "simulated App Store Sync failure: the store's settings make this call fail")
    }
}
