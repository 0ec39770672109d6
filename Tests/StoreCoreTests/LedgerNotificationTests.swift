import Foundation
import Synchronization
import Testing
@testable import StoreCore
import SQLiteLedger
import TestPrerequisites

@Suite struct LedgerNotificationTests {
    private let directory: SQLiteTemporaryDirectory
    private let ledger: Ledger

    init() throws {
        directory = try SQLiteTemporaryDirectory()
        ledger = try Ledger(path: directory.path("ledger.sqlite"))
    }

    private func notification(
        uuid: String?, type: NotificationTypeV2, transaction: JWSTransactionDecodedPayload?, renewalInfo: JWSRenewalInfoDecodedPayload? = nil
    ) -> ResponseBodyV2DecodedPayload {
        ResponseBodyV2DecodedPayload(
            notificationType: type,
            notificationUUID: uuid,
            data: NotificationData(
                environment: .sandbox, bundleId: "com.example",
                signedTransactionInfo: transaction.map(LedgerFixtures.jws),
                signedRenewalInfo: renewalInfo.map(LedgerFixtures.jws)),
            version: "2.0",
            signedDate: LedgerFixtures.date(10_000))
    }

    @Test func aNotificationIsProcessedOnceAndItsRedeliveryChangesNothing() throws {
        try ledger.registerCustomer(id: "ada")
        let renewal = LedgerFixtures.transaction(id: "6001", originalID: "6000", productID: "pass.monthly", type: .autoRenewableSubscription, signedAt: 1)
        let info = LedgerFixtures.renewalInfo(originalID: "6000", signedAt: 1)
        let body = notification(uuid: "0f9a8c4e-1111-4b8a-9d3c-000000000001", type: .didRenew, transaction: renewal, renewalInfo: info)
        let first = LedgerFixtures.transaction(id: "6000", productID: "pass.monthly", type: .autoRenewableSubscription)
        try ledger.ingest(transaction: first, jwsRepresentation: LedgerFixtures.jws(first), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)

        let processed = try ledger.ingest(notification: body, transaction: renewal, renewalInfo: info, decide: LedgerFixtures.pelletsPolicy)
        guard case .processed(let transactionResult?, let renewalResult?) = processed else {
            Issue.record("expected both payloads processed, got \(processed)")
            return
        }
        #expect(transactionResult.storage == .inserted)
        #expect(transactionResult.transaction.customerID == "ada")
        #expect(transactionResult.transaction.jwsRepresentation == body.data?.signedTransactionInfo)
        guard case .inserted(let stored) = renewalResult else {
            Issue.record("expected the renewal info inserted, got \(renewalResult)")
            return
        }
        #expect(stored.jwsRepresentation == body.data?.signedRenewalInfo)
        #expect(try ledger.isNotificationProcessed("0f9a8c4e-1111-4b8a-9d3c-000000000001"))

        let again = try ledger.ingest(notification: body, transaction: renewal, renewalInfo: info) { _ in
            Issue.record("a processed notification must not be decided again")
            return []
        }
        #expect(again == .alreadyProcessed)
        #expect(try ledger.versions(ofTransaction: "6001").count == 1)
        #expect(try ledger.transactions(originalTransactionID: "6000").map(\.id) == ["6000", "6001"])
    }

    @Test func aNotificationWithoutSignedDataIsRecordedAsProcessed() throws {
        let test = notification(uuid: "test-uuid", type: .test, transaction: nil)
        #expect(try ledger.ingest(notification: test, transaction: nil, renewalInfo: nil, decide: LedgerFixtures.pelletsPolicy)
            == .processed(transaction: nil, renewalInfo: nil))
        #expect(try ledger.isNotificationProcessed("test-uuid"))
        #expect(try !ledger.isNotificationProcessed("another-uuid"))
    }

    @Test func theCustomerIsFoundThroughTheAppAccountToken() throws {
        try ledger.registerCustomer(id: "bob", appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        let purchase = LedgerFixtures.transaction(id: "6100", appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        let body = notification(uuid: "n-6100", type: .oneTimeCharge, transaction: purchase)
        let result = try ledger.ingest(notification: body, transaction: purchase, renewalInfo: nil, decide: LedgerFixtures.pelletsPolicy)
        guard case .processed(let transactionResult?, nil) = result else {
            Issue.record("expected the transaction processed, got \(result)")
            return
        }
        #expect(transactionResult.transaction.customerID == "bob")
        #expect(try ledger.balance(of: "pellet", customerID: "bob") == 5)
    }

    @Test("a notification for an unknown customer is kept, not refused, and processed once the customer is known")
    func aNotificationForAnUnknownCustomerIsKeptUntilTheCustomerIsKnown() throws {
        let purchase = LedgerFixtures.transaction(id: "6200", appAccountToken: "0f0e0d0c-0000-4000-8000-000000006200")
        let body = notification(uuid: "n-6200", type: .oneTimeCharge, transaction: purchase)
        let kept = try ledger.ingest(notification: body, transaction: purchase, renewalInfo: nil, decide: LedgerFixtures.pelletsPolicy)
        guard case .pending(let reason) = kept else {
            Issue.record("expected the notification kept, got \(kept)")
            return
        }
        #expect(reason.contains("6200"))
        #expect(try !ledger.isNotificationProcessed("n-6200"))
        #expect(try ledger.transaction(id: "6200") == nil)
        #expect(try ledger.pendingNotifications().map(\.uuid) == ["n-6200"])
        #expect(try ledger.resolvePendingNotifications(decide: LedgerFixtures.pelletsPolicy).isEmpty)
        _ = try ledger.ingest(notification: body, transaction: purchase, renewalInfo: nil, decide: LedgerFixtures.pelletsPolicy)
        #expect(try ledger.pendingNotifications().count == 1)

        try ledger.registerCustomer(id: "cy", appAccountToken: "0f0e0d0c-0000-4000-8000-000000006200")
        let resolved = try ledger.resolvePendingNotifications(decide: LedgerFixtures.pelletsPolicy)
        guard case .processed(let transaction?, nil)? = resolved.first, resolved.count == 1 else {
            Issue.record("expected one notification processed, got \(resolved)")
            return
        }
        #expect(transaction.transaction.customerID == "cy")
        #expect(try ledger.balance(of: "pellet", customerID: "cy") == 5)
        #expect(try ledger.isNotificationProcessed("n-6200"))
        #expect(try ledger.pendingNotifications().isEmpty)
        #expect(try ledger.ingest(notification: body, transaction: purchase, renewalInfo: nil, decide: LedgerFixtures.pelletsPolicy)
                == .alreadyProcessed)
    }

    @Test func mismatchedOrIncompleteNotificationsAreRefused() throws {
        let purchase = LedgerFixtures.transaction(id: "6300")
        let withTransaction = notification(uuid: "n-6300", type: .oneTimeCharge, transaction: purchase)
        let withoutTransaction = notification(uuid: "n-6301", type: .oneTimeCharge, transaction: nil)
        let withoutUUID = notification(uuid: nil, type: .oneTimeCharge, transaction: nil)
        #expect(throws: LedgerError.self) {
            try ledger.ingest(notification: withTransaction, transaction: nil, renewalInfo: nil, customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        }
        #expect(throws: LedgerError.self) {
            try ledger.ingest(notification: withoutTransaction, transaction: purchase, renewalInfo: nil, customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        }
        #expect(throws: LedgerError.missingNotificationUUID) {
            try ledger.ingest(notification: withoutUUID, transaction: nil, renewalInfo: nil, decide: LedgerFixtures.pelletsPolicy)
        }
        var brokenInfo = LedgerFixtures.renewalInfo(originalID: "6300", signedAt: 1)
        brokenInfo.signedDate = nil
        let withBrokenInfo = notification(uuid: "n-6302", type: .didRenew, transaction: purchase, renewalInfo: brokenInfo)
        #expect(throws: LedgerError.missingField(payload: "renewal info", field: "signedDate")) {
            try ledger.ingest(notification: withBrokenInfo, transaction: purchase, renewalInfo: brokenInfo, customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        }
        #expect(try ledger.transaction(id: "6300") == nil)
        #expect(try ledger.customers().isEmpty)
        for uuid in ["n-6300", "n-6301", "n-6302"] {
            #expect(try !ledger.isNotificationProcessed(uuid))
        }
    }

    @Test func theNewestRenewalInfoWinsBySignedDate() throws {
        let older = LedgerFixtures.renewalInfo(originalID: "6400", signedAt: 1_000, autoRenew: .on)
        let newer = LedgerFixtures.renewalInfo(originalID: "6400", signedAt: 2_000, autoRenew: .off)
        guard case .inserted(let inserted) = try ledger.ingest(renewalInfo: older, jwsRepresentation: LedgerFixtures.jws(older)) else {
            Issue.record("expected the first renewal info inserted")
            return
        }
        #expect(inserted.willAutoRenew)
        guard case .replaced(let replaced) = try ledger.ingest(renewalInfo: newer, jwsRepresentation: LedgerFixtures.jws(newer)) else {
            Issue.record("expected the newer renewal info to replace the older")
            return
        }
        #expect(!replaced.willAutoRenew)
        #expect(replaced.signedDate == LedgerFixtures.date(2_000))
        #expect(try ledger.ingest(renewalInfo: older, jwsRepresentation: LedgerFixtures.jws(older)) == .kept(replaced))
        let stored = try #require(try ledger.renewalInfo(originalTransactionID: "6400"))
        #expect(stored == replaced)
        #expect(stored.jwsRepresentation == LedgerFixtures.jws(newer))
        #expect(stored.currentProductID == "com.example.pass.monthly")
        #expect(stored.renewalDate == LedgerFixtures.date(2_000 + 86_400_000))
        #expect(try ledger.renewalInfo(originalTransactionID: "unknown") == nil)
    }

    @Test func aRefundNotificationReversesTheGrants() throws {
        let purchase = LedgerFixtures.transaction(id: "6500", signedAt: 0)
        try ledger.ingest(transaction: purchase, jwsRepresentation: LedgerFixtures.jws(purchase), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        let refunded = LedgerFixtures.transaction(id: "6500", signedAt: 5_000, revokedAt: 4_000)
        let body = notification(uuid: "n-6500", type: .refund, transaction: refunded)
        let result = try ledger.ingest(notification: body, transaction: refunded, renewalInfo: nil, decide: LedgerFixtures.pelletsPolicy)
        guard case .processed(let transactionResult?, nil) = result else {
            Issue.record("expected the refund processed, got \(result)")
            return
        }
        #expect(transactionResult.outcome == .revoked(reversed: [Grant(item: "pellet", amount: 5)]))
        #expect(try ledger.balance(of: "pellet", customerID: "ada") == 0)
    }
}
