import Foundation
import StoreCore
import SQLiteLedger
@testable import StorePolicy
import StoreTesting
import TestPrerequisites

/// The Backyard Birds example (its `.storekit` and `policy.lua`) and a ledger fed with
/// purchases signed by a local authority and verified, as the pipeline feeds it.
final class BackyardBirdsLedger {
    /// The Backyard Birds Pass group id.
    static let pass = "6F3A93AB"
    /// 2025-03-01T00:00:00Z, in milliseconds.
    static let baseMilliseconds: Int64 = 1_740_787_200_000

    static let folder = try! PolicyFolder(
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/BackyardBirds"))

    /// One authority for the whole run.
    static let authority = try! SigningAuthority.generate(validity: SigningAuthority.standardValidity(around: day(0)))

    /// The date `days` days after the base.
    static func day(_ days: Double) -> Date {
        Date(millisecondsSince1970: baseMilliseconds + Int64(days * 86_400_000))
    }

    /// The example folder has no `.storekit` file.
    struct MissingCatalog: Error {}

    let catalog: Catalog
    let directory: URL
    let ledger: Ledger
    let verifier: SignedDataVerifier

    init() throws {
        guard let catalog = try Self.folder.loadCatalog() else { throw MissingCatalog() }
        self.catalog = catalog
        directory = try TestFolders.make("storerules-context")
        ledger = try Ledger(path: directory.appendingPathComponent("ledger.sqlite").path)
        verifier = try SignedDataVerifier(
            rootCertificates: [Self.authority.rootCertificate], bundleId: "com.example.backyardbirds", environment: .sandbox)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// An engine running the example policy (or `policy`) with the example catalog.
    func engine(_ policy: String? = nil) throws -> PolicyEngine {
        let source = try policy.map { PolicySource(text: $0) } ?? Self.folder.policySource()
        return try PolicyEngine(source: source, catalog: PolicyCatalog(catalog))
    }

    /// A signed transaction payload; subscriptions get the pass group and a 30-day period.
    static func transaction(
        _ id: String, product: String, type: TransactionProductType, originalID: String? = nil, quantity: Int32 = 1,
        bought: Double, signed: Double? = nil, revoked: Double? = nil, price: Int64 = 990, storefront: String = "FRA"
    ) -> JWSTransactionDecodedPayload {
        let isSubscription = type == .autoRenewableSubscription
        return JWSTransactionDecodedPayload(
            originalTransactionId: originalID ?? id, transactionId: id, bundleId: "com.example.backyardbirds",
            productId: product, subscriptionGroupIdentifier: isSubscription ? pass : nil,
            purchaseDate: day(bought), originalPurchaseDate: day(bought),
            expiresDate: isSubscription ? day(bought + 30) : nil, quantity: quantity, type: type,
            inAppOwnershipType: .purchased, signedDate: day(signed ?? bought),
            revocationReason: revoked == nil ? nil : .refundedDueToIssue, revocationDate: revoked.map(day),
            environment: .sandbox, storefront: storefront, storefrontId: "143442", transactionReason: .purchase,
            currency: "EUR", price: price)
    }

    /// A signed renewal info payload of the pass subscription `originalID`.
    static func renewal(
        _ originalID: String, product: String, renewsTo: String? = nil, autoRenew: AutoRenewStatus = .on,
        billingRetry: Bool = false, graceUntil: Double? = nil, signed: Double
    ) -> JWSRenewalInfoDecodedPayload {
        JWSRenewalInfoDecodedPayload(
            originalTransactionId: originalID, autoRenewProductId: renewsTo ?? product, productId: product,
            autoRenewStatus: autoRenew, isInBillingRetryPeriod: billingRetry, gracePeriodExpiresDate: graceUntil.map(day),
            signedDate: day(signed), environment: .sandbox)
    }

    /// Signs, verifies and ingests `payload` for `customer`, deciding with `decide`.
    @discardableResult
    func ingest(
        _ payload: JWSTransactionDecodedPayload, customer: String = "ada",
        decide: (StoredTransaction) throws -> [Grant]
    ) throws -> TransactionIngestResult {
        let jws = try Self.authority.sign(payload)
        return try ledger.ingest(
            transaction: try verifier.verifyAndDecodeTransaction(jws), jwsRepresentation: jws, customerID: customer, decide: decide)
    }

    /// Signs, verifies and ingests a renewal info.
    func ingest(_ renewal: JWSRenewalInfoDecodedPayload) throws {
        let jws = try Self.authority.sign(renewal)
        try ledger.ingest(renewalInfo: try verifier.verifyAndDecodeRenewalInfo(jws), jwsRepresentation: jws)
    }
}
