import Foundation
@testable import StoreCore
import SQLiteLedger
import TestPrerequisites

/// Payloads and a catalog for the entitlement tests, dated in days after a fixed base.
enum EntitlementFixtures {
    /// 2025-01-01T00:00:00Z, in milliseconds.
    static let baseMilliseconds: Int64 = 1_735_689_600_000
    static let dayMilliseconds: Int64 = 86_400_000

    /// The date `days` days after the base.
    static func day(_ days: Double) -> Date {
        Date(millisecondsSince1970: baseMilliseconds + Int64(days * Double(dayMilliseconds)))
    }

    /// A catalog with a consumable, a non-consumable, a non-renewing subscription, the
    /// three-level group PASS (premium 1, family 2, individual 3) and a second group EXTRA.
    static let catalog: Catalog = {
        let json = CatalogJSON.document(
            products: [
                CatalogJSON.product("pellet.box", type: "Consumable"),
                CatalogJSON.product("feeder.golden", type: "NonConsumable"),
            ],
            nonRenewing: [CatalogJSON.product("season.pass", type: "NonRenewingSubscription")],
            groups: [
                CatalogJSON.group(
                    [
                        CatalogJSON.subscription("pass.premium", groupID: "PASS", level: 1),
                        CatalogJSON.subscription("pass.family", groupID: "PASS", level: 2),
                        CatalogJSON.subscription("pass.individual", groupID: "PASS", level: 3),
                    ], id: "PASS", name: "Pass"),
                CatalogJSON.group([CatalogJSON.subscription("extra.monthly", groupID: "EXTRA", level: 1)], id: "EXTRA", name: "Extra"),
            ])
        do {
            return try CatalogJSON.load(json)
        } catch {
            fatalError("the entitlement test catalog does not load: \(error)")
        }
    }()

    /// A transaction of any kind; `signed` defaults to the purchase day.
    static func transaction(
        _ id: String,
        product: String,
        type: TransactionProductType,
        originalID: String? = nil,
        group: String? = nil,
        bought: Double,
        expires: Double? = nil,
        signed: Double? = nil,
        revoked: Double? = nil,
        upgraded: Bool? = nil,
        ownership: InAppOwnershipType = .purchased,
        offer: OfferType? = nil
    ) -> JWSTransactionDecodedPayload {
        JWSTransactionDecodedPayload(
            originalTransactionId: originalID ?? id,
            transactionId: id,
            bundleId: "com.example",
            productId: product,
            subscriptionGroupIdentifier: group,
            purchaseDate: day(bought),
            originalPurchaseDate: day(bought),
            expiresDate: expires.map(day),
            quantity: 1,
            type: type,
            inAppOwnershipType: ownership,
            signedDate: day(signed ?? bought),
            revocationReason: revoked == nil ? nil : .refundedForOtherReason,
            revocationDate: revoked.map(day),
            isUpgraded: upgraded,
            offerType: offer,
            environment: .sandbox,
            storefront: "USA")
    }

    /// A one-month period of a PASS subscription, from `bought` to `bought + 30`.
    static func pass(
        _ id: String,
        product: String = "pass.individual",
        originalID: String? = nil,
        bought: Double,
        expires: Double? = nil,
        signed: Double? = nil,
        revoked: Double? = nil,
        upgraded: Bool? = nil,
        ownership: InAppOwnershipType = .purchased,
        offer: OfferType? = nil
    ) -> JWSTransactionDecodedPayload {
        transaction(
            id, product: product, type: .autoRenewableSubscription, originalID: originalID, group: "PASS",
            bought: bought, expires: expires ?? bought + 30, signed: signed, revoked: revoked, upgraded: upgraded,
            ownership: ownership, offer: offer)
    }

    /// A renewal info of the subscription `originalID`.
    static func renewal(
        _ originalID: String,
        product: String = "pass.individual",
        renewsTo: String? = nil,
        autoRenew: AutoRenewStatus = .on,
        billingRetry: Bool? = false,
        graceUntil: Double? = nil,
        intent: ExpirationIntent? = nil,
        signed: Double
    ) -> JWSRenewalInfoDecodedPayload {
        JWSRenewalInfoDecodedPayload(
            expirationIntent: intent,
            originalTransactionId: originalID,
            autoRenewProductId: renewsTo ?? product,
            productId: product,
            autoRenewStatus: autoRenew,
            isInBillingRetryPeriod: billingRetry,
            gracePeriodExpiresDate: graceUntil.map(day),
            signedDate: day(signed),
            environment: .sandbox)
    }
}

/// A ledger in a temporary directory, fed decoded payloads the way the pipeline feeds it
/// verified ones.
final class EntitlementLedger {
    let directory: SQLiteTemporaryDirectory
    let ledger: Ledger

    init() throws {
        directory = try SQLiteTemporaryDirectory()
        ledger = try Ledger(path: directory.path("ledger.sqlite"))
    }

    /// Ingests `payloads` for `customer`, granting five pellets per consumable.
    func record(_ payloads: JWSTransactionDecodedPayload..., customer: String = "ada") throws {
        for payload in payloads {
            try ledger.ingest(
                transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: customer,
                decide: LedgerFixtures.pelletsPolicy)
        }
    }

    /// Ingests renewal infos.
    func record(_ renewals: JWSRenewalInfoDecodedPayload...) throws {
        for renewal in renewals {
            try ledger.ingest(renewalInfo: renewal, jwsRepresentation: LedgerFixtures.jws(renewal))
        }
    }

    /// The state of `customer` on day `days`, with the test catalog.
    func state(onDay days: Double, customer: String = "ada") throws -> CustomerState {
        try ledger.customerState(customerID: customer, catalog: EntitlementFixtures.catalog, at: EntitlementFixtures.day(days))
    }
}
