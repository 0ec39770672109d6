import Foundation
@testable import StoreCore
@testable import StoreTesting
import Testing

@Suite struct LocalStoreBillingTests {
    static let retryAndGrace = #"{"_renewalBillingIssuesEnabled": true, "_billingGracePeriodEnabled": true}"#
    static let retryOnly = #"{"_renewalBillingIssuesEnabled": true}"#

    @Test func aFailedRenewalEntersTheGracePeriodThenBillingRetryThenExpires() throws {
        let harness = try StoreHarness(settings: Self.retryAndGrace)
        let first = try harness.buy("pass.basic")
        #expect(first.expiresDate == StoreHarness.date("2025-02-28T00:00:00Z"))

        let failed = try harness.store.advance(by: StoreHarness.duration("P1M"))
        #expect(failed.map(\.summary) == ["DID_FAIL_TO_RENEW/GRACE_PERIOD"])
        let grace = try #require(failed.first)
        #expect(grace.payload.data?.status == .billingGracePeriod)
        #expect(grace.renewalInfo?.isInBillingRetryPeriod == true)
        #expect(grace.renewalInfo?.gracePeriodExpiresDate == StoreHarness.date("2025-03-16T00:00:00Z"))
        #expect(grace.renewalInfo?.expirationIntent == .billingError)
        let stored = try #require(try harness.ledger.renewalInfo(originalTransactionID: first.transactionId!))
        #expect(stored.isInBillingRetry == true)
        #expect(stored.gracePeriodExpirationDate == StoreHarness.date("2025-03-16T00:00:00Z"))
        #expect(try harness.ledgerTransactions().count == 1)
        let subscription = try #require(try harness.store.subscription(customerID: "ana", groupID: "G1"))
        #expect(subscription.state == .inGracePeriod)
        #expect(subscription.billingRetryExpirationDate == StoreHarness.date("2025-04-29T00:00:00Z"))

        let graceEnded = try harness.store.advance(by: StoreHarness.duration("P20D"))
        #expect(graceEnded.map(\.summary) == ["GRACE_PERIOD_EXPIRED"])
        #expect(graceEnded.first?.payload.data?.status == .billingRetry)
        #expect(graceEnded.first?.renewalInfo?.gracePeriodExpiresDate == nil)
        #expect(graceEnded.first?.renewalInfo?.isInBillingRetryPeriod == true)

        let expired = try harness.store.advance(by: StoreHarness.duration("P2M"))
        #expect(expired.map(\.summary) == ["EXPIRED/BILLING_RETRY"])
        #expect(expired.first?.payload.data?.status == .expired)
        #expect(expired.first?.renewalInfo?.expirationIntent == .billingError)
        #expect(expired.first?.renewalInfo?.isInBillingRetryPeriod == false)
        #expect(expired.first?.payload.signedDate.map { $0 >= StoreHarness.date("2025-04-29T00:00:00Z") } == true)
        #expect(try harness.store.subscription(customerID: "ana", groupID: "G1")?.state == .expired)
    }

    @Test func resolvingTheIssueInTheGracePeriodKeepsTheRenewalDate() throws {
        let harness = try StoreHarness(settings: Self.retryAndGrace)
        let first = try harness.buy("pass.basic")
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        try harness.store.advance(by: StoreHarness.duration("P5D"))
        let recovered = try harness.store.resolveBillingIssue(customer: "ana", groupID: "G1")
        #expect(recovered.map(\.summary) == ["DID_RENEW/BILLING_RECOVERY"])
        let renewal = try #require(recovered.first?.transaction)
        #expect(renewal.originalTransactionId == first.transactionId)
        #expect(renewal.purchaseDate == StoreHarness.date("2025-02-28T00:00:00Z"))
        #expect(renewal.expiresDate == StoreHarness.date("2025-03-28T00:00:00Z"))
        #expect(recovered.first?.payload.data?.status == .active)
        #expect(recovered.first?.renewalInfo?.isInBillingRetryPeriod == false)
        #expect(recovered.first?.renewalInfo?.expirationIntent == nil)
        #expect(try harness.ledgerTransactions().count == 2)
        #expect(throws: LocalStoreError.noBillingIssue(customerID: "ana", groupID: "G1")) {
            try harness.store.resolveBillingIssue(customer: "ana", groupID: "G1")
        }
    }

    @Test func resolvingTheIssueInBillingRetryStartsANewPeriodNow() throws {
        let harness = try StoreHarness(settings: Self.retryOnly)
        try harness.buy("pass.basic")
        let failed = try harness.store.advance(by: StoreHarness.duration("P1M"))
        #expect(failed.map(\.summary) == ["DID_FAIL_TO_RENEW"])
        #expect(failed.first?.payload.data?.status == .billingRetry)
        #expect(failed.first?.renewalInfo?.gracePeriodExpiresDate == nil)
        try harness.store.advance(by: StoreHarness.duration("P10D"))
        try harness.store.updateSettings { $0.shouldEnterBillingRetryOnRenewal = false }
        let recovered = try harness.store.resolveBillingIssue(customer: "ana", groupID: "G1")
        #expect(recovered.map(\.summary) == ["DID_RENEW/BILLING_RECOVERY"])
        #expect(recovered.first?.transaction?.purchaseDate == StoreHarness.date("2025-03-10T00:00:00Z"))
        #expect(recovered.first?.transaction?.expiresDate == StoreHarness.date("2025-04-10T00:00:00Z"))
        #expect(try harness.store.advance(by: StoreHarness.duration("P1M")).map(\.summary) == ["DID_RENEW"])
    }

    @Test func weeklySubscriptionsHaveASixDayGracePeriod() throws {
        let harness = try StoreHarness(settings: Self.retryAndGrace)
        let first = try harness.buy("weekly.tips")
        #expect(first.expiresDate == StoreHarness.date("2025-02-07T00:00:00Z"))
        let failed = try harness.store.advance(by: StoreHarness.duration("P1W"))
        #expect(failed.first?.renewalInfo?.gracePeriodExpiresDate == StoreHarness.date("2025-02-13T00:00:00Z"))
    }

    @Test func aSubscriptionWithABillingIssueCannotBeBoughtAgainInItsGroup() throws {
        let harness = try StoreHarness(settings: Self.retryAndGrace)
        try harness.buy("pass.basic")
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        let before = try harness.footprint()
        #expect(throws: LocalStoreError.subscriptionHasBillingIssue(customerID: "ana", groupID: "G1")) {
            try harness.store.purchase("pass.premium", customer: "ana")
        }
        #expect(throws: LocalStoreError.subscriptionNotActive(customerID: "ana", groupID: "G1", state: .inGracePeriod)) {
            try harness.store.forceRenewal(customer: "ana", groupID: "G1")
        }
        #expect(try harness.footprint() == before)
    }

    @Test func turningAutoRenewOffDuringABillingIssueEndsTheSubscription() throws {
        let harness = try StoreHarness(settings: Self.retryAndGrace)
        try harness.buy("pass.basic")
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        #expect(try harness.store.setAutoRenew(false, customer: "ana", groupID: "G1").map(\.summary)
                == ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY"])
        #expect(try harness.store.subscription(customerID: "ana", groupID: "G1")?.state == .expired)
    }

    @Test func settingsOverridesPersistUntilReset() throws {
        let harness = try StoreHarness()
        #expect(try harness.store.settings() == LocalStoreSettings())
        try harness.store.updateSettings {
            $0.askToBuyEnabled = true
            $0.timeRate = .monthlyRenewalEveryThirtySeconds
        }
        let (_, reopened) = try harness.reopened()
        #expect(try reopened.settings().askToBuyEnabled)
        #expect(try reopened.settings().timeRate == .monthlyRenewalEveryThirtySeconds)
        try reopened.resetSettings()
        #expect(try harness.store.settings() == LocalStoreSettings())
    }
}
