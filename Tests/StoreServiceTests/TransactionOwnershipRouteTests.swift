import Foundation
import StoreCore
import SQLiteLedger
import StoreService
import StoreTesting
import Testing
import TestPrerequisites

/// `POST /v1/transactions` grants a purchase only to the account its signed app account token
/// names: another customer presenting the same signed transaction is refused with `409`, is
/// told nothing of the owner, and Apple's notification then grants the owner.
@Suite struct TransactionOwnershipRouteTests {
    @Test("another customer presenting a purchase signed with the victim's token gets 409, nothing is granted, and the notification grants the victim")
    func sharedReceiptIsRefusedAndTheOwnerIsGranted() throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        let folder = try TestFolders.make("storerules-ownership")
        defer { try? FileManager.default.removeItem(at: folder) }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let store = try LocalStore(
            catalog: try Catalog(contentsOf: packageRoot.appending(path: "Examples/BackyardBirds/Products.storekit")),
            authority: service.authority, ledger: try Ledger(path: folder.appending(path: "store-ledger.sqlite").path),
            state: try Database(path: folder.appending(path: "store.sqlite").path),
            configuration: LocalStore.Configuration(bundleID: "com.example.backyardbirds", environment: .sandbox),
            decide: { _ in [] })

        let victimToken = UUID()
        #expect(service.respond("PUT", "/v1/customers/victim", body: #"{"app_account_token": "\#(victimToken)"}"#).status == 200)
        #expect(service.respond("PUT", "/v1/customers/mallory", body: #"{"app_account_token": "\#(UUID())"}"#).status == 200)
        guard case .success(let bought) = try store.purchase("pellet.box", customer: "victim", options: [.appAccountToken(victimToken)]) else {
            Issue.record("the local store did not sell the box")
            return
        }

        let claimed = service.respond(
            "POST", "/v1/transactions",
            body: #"{"customer": "mallory", "signed_transaction": "\#(bought.jwsRepresentation)"}"#)
        #expect(claimed.status == 409)
        #expect(claimed.errorKind == "ledger")
        let text = String(decoding: claimed.body, as: UTF8.self)
        #expect(text.contains("belongs to another account"), "\(text)")
        #expect(!text.contains("victim") && !text.contains(victimToken.uuidString.lowercased()), "\(text)")
        #expect(service.router.metrics.exposition(unfinishedTransactions: nil, policyVersion: "").contains(
            #"storerules_ingests_total{kind="transaction",outcome="refused_token_of_another_customer"} 1"#))
        let mallory = service.respond("GET", "/v1/customers/mallory").object
        #expect((mallory["balances"] as? [String: Any])?.isEmpty ?? true, "\(mallory)")

        for notification in try store.notifications(customerID: "victim") {
            let delivered = service.respond(
                "POST", "/v1/notifications", key: nil, body: #"{"signedPayload": "\#(notification.signed.jwsRepresentation)"}"#)
            #expect(delivered.status == 200, "\(String(decoding: delivered.body, as: UTF8.self))")
        }
        let victim = service.respond("GET", "/v1/customers/victim").object
        #expect((victim["balances"] as? [String: Any])?["pellet"] as? Int == 5, "\(victim)")
    }
}
