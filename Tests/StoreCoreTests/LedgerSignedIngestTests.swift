import Foundation
@testable import StoreCore
import SQLiteLedger
@testable import StoreTesting
import Testing
import TestPrerequisites

/// The ledger fed by the verifier, as the pipeline feeds it: signed JWS in, verified payloads
/// and the verbatim JWS stored.
@Suite struct LedgerSignedIngestTests {
    @Test func verifiedSignedDataIsStoredVerbatimAndVerifiesAgainFromTheLedger() throws {
        let authority = try SigningAuthority.generate(validity: SigningAuthority.standardValidity(around: LedgerFixtures.date(0)))
        let verifier = try SignedDataVerifier(rootCertificates: [authority.rootCertificate], bundleId: "com.example", environment: .sandbox)
        let directory = try SQLiteTemporaryDirectory()
        let ledger = try Ledger(path: directory.path("ledger.sqlite"))

        let purchase = LedgerFixtures.transaction(id: "8000", quantity: 2, signedAt: 1)
        let signedPurchase = try authority.sign(purchase)
        try ledger.ingest(
            transaction: try verifier.verifyAndDecodeTransaction(signedPurchase), jwsRepresentation: signedPurchase,
            customerID: "ada", decide: LedgerFixtures.pelletsPolicy)

        let refund = LedgerFixtures.transaction(id: "8000", quantity: 2, signedAt: 2_000, revokedAt: 1_500)
        let notification = ResponseBodyV2DecodedPayload(
            notificationType: .refund, notificationUUID: "9b1c2d3e-0000-4000-8000-000000008000",
            data: NotificationData(environment: .sandbox, bundleId: "com.example", signedTransactionInfo: try authority.sign(refund)),
            version: "2.0", signedDate: LedgerFixtures.date(2_001))
        let signedNotification = try authority.sign(notification)
        let verified = try verifier.verifyAndDecodeNotification(signedNotification)
        let signedRefund = try #require(verified.data?.signedTransactionInfo)
        let result = try ledger.ingest(
            notification: verified, transaction: try verifier.verifyAndDecodeTransaction(signedRefund), renewalInfo: nil,
            decide: LedgerFixtures.pelletsPolicy)
        guard case .processed(let transactionResult?, nil) = result else {
            Issue.record("expected the refund processed, got \(result)")
            return
        }
        #expect(transactionResult.outcome == .revoked(reversed: [Grant(item: "pellet", amount: 10)]))

        let stored = try #require(try ledger.transaction(id: "8000"))
        #expect(stored.jwsRepresentation == signedRefund)
        #expect(try verifier.verifyAndDecodeTransaction(stored.jwsRepresentation) == refund)
        #expect(try ledger.versions(ofTransaction: "8000").map(\.jwsRepresentation) == [signedPurchase, signedRefund])
        #expect(try ledger.balance(of: "pellet", customerID: "ada") == 0)
    }
}
