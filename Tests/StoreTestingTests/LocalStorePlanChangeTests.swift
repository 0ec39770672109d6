import Foundation
@testable import StoreCore
@testable import StoreTesting
import Testing

@Suite struct LocalStorePlanChangeTests {
    @Test func anUpgradeTakesEffectAtOnceAndMarksThePreviousTransactionUpgraded() throws {
        let harness = try StoreHarness()
        let family = try harness.buy("pass.family")
        try harness.store.advance(by: StoreHarness.duration("P10D"))
        let sequence = try harness.lastSequence()
        let annual = try harness.buy("pass.premium.annual")
        #expect(try harness.sent(after: sequence) == ["DID_CHANGE_RENEWAL_PREF/UPGRADE"])
        #expect(annual.originalTransactionId == family.transactionId)
        #expect(annual.transactionId != family.transactionId)
        #expect(annual.transactionReason == .purchase)
        #expect(annual.purchaseDate == StoreHarness.date("2025-02-10T00:00:00Z"))
        #expect(annual.expiresDate == StoreHarness.date("2026-02-10T00:00:00Z"))
        let previous = try #require(try harness.ledger.transaction(id: family.transactionId!))
        #expect(previous.isUpgraded)
        #expect(previous.grantState == .granted)
        let renewalInfo = try #require(try harness.ledger.renewalInfo(originalTransactionID: family.transactionId!))
        #expect(renewalInfo.currentProductID == "pass.premium.annual")
        #expect(renewalInfo.autoRenewPreference == "pass.premium.annual")
        #expect(try harness.store.advance(by: StoreHarness.duration("P1M")).isEmpty)
    }

    @Test func aDowngradeWaitsForTheNextRenewal() throws {
        let harness = try StoreHarness()
        let plus = try harness.buy("pass.plus")
        let sequence = try harness.lastSequence()
        let returned = try harness.buy("pass.basic")
        #expect(returned.transactionId == plus.transactionId)
        let sent = try harness.store.notifications(after: sequence)
        #expect(sent.map(\.summary) == ["DID_CHANGE_RENEWAL_PREF/DOWNGRADE"])
        #expect(sent.first?.renewalInfo?.productId == "pass.plus")
        #expect(sent.first?.renewalInfo?.autoRenewProductId == "pass.basic")
        #expect(sent.first?.renewalInfo?.renewalPrice == 2990)
        #expect(try harness.ledger.renewalInfo(originalTransactionID: plus.transactionId!)?.autoRenewPreference == "pass.basic")

        let renewed = try harness.store.advance(by: StoreHarness.duration("P1M"))
        #expect(renewed.map(\.summary) == ["DID_RENEW"])
        let renewal = try #require(renewed.first?.transaction)
        #expect(renewal.productId == "pass.basic")
        #expect(renewal.price == 2990)
        #expect(renewal.transactionReason == .renewal)
        #expect(renewal.originalTransactionId == plus.transactionId)
        #expect(try harness.ledger.transaction(id: plus.transactionId!)?.isUpgraded == false)
    }

    @Test func buyingTheCurrentPlanCancelsAPendingDowngrade() throws {
        let harness = try StoreHarness()
        let plus = try harness.buy("pass.plus")
        try harness.buy("pass.basic")
        let sequence = try harness.lastSequence()
        try harness.buy("pass.plus")
        let sent = try harness.store.notifications(after: sequence)
        #expect(sent.map(\.summary) == ["DID_CHANGE_RENEWAL_PREF"])
        #expect(sent.first?.renewalInfo?.autoRenewProductId == "pass.plus")
        #expect(try harness.store.advance(by: StoreHarness.duration("P1M")).first?.transaction?.productId == "pass.plus")
        #expect(plus.productId == "pass.plus")
    }

    @Test func aCrossgradeToTheSamePeriodTakesEffectAtOnce() throws {
        let harness = try StoreHarness()
        let family = try harness.buy("pass.family")
        let sequence = try harness.lastSequence()
        let plus = try harness.buy("pass.plus")
        #expect(try harness.sent(after: sequence) == ["DID_CHANGE_RENEWAL_PREF/UPGRADE"])
        #expect(plus.productId == "pass.plus")
        #expect(plus.originalTransactionId == family.transactionId)
        #expect(try harness.ledger.transaction(id: family.transactionId!)?.isUpgraded == true)
    }

    @Test func aCrossgradeToAnotherPeriodWaitsForTheNextRenewal() throws {
        let harness = try StoreHarness()
        let premium = try harness.buy("pass.premium")
        let sequence = try harness.lastSequence()
        let returned = try harness.buy("pass.premium.annual")
        #expect(returned.transactionId == premium.transactionId)
        #expect(try harness.sent(after: sequence) == ["DID_CHANGE_RENEWAL_PREF/DOWNGRADE"])
        let renewed = try harness.store.advance(by: StoreHarness.duration("P1W"))
        let renewal = try #require(renewed.first?.transaction)
        #expect(renewal.productId == "pass.premium.annual")
        #expect(renewal.purchaseDate == StoreHarness.date("2025-02-07T00:00:00Z"))
        #expect(renewal.expiresDate == StoreHarness.date("2026-02-07T00:00:00Z"))
    }
}
