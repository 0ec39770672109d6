import Foundation
@testable import StoreCore
@testable import StoreTesting
import Testing

@Suite struct LocalStorePurchaseTests {
    @Test func aConsumablePurchaseIsSignedVerifiedStoredAndGranted() throws {
        let harness = try StoreHarness()
        let token = UUID()
        guard case .success(let signed) = try harness.store.purchase(
            "coins", customer: "ana", options: [.quantity(3), .appAccountToken(token)]) else {
            Issue.record("expected success")
            return
        }
        let independent = try SignedDataVerifier(rootCertificates: [StoreHarness.authority.rootCertificate],
                                                  bundleId: StoreHarness.bundleID, environment: .xcode)
        let verified = try independent.verifyAndDecodeTransaction(signed.jwsRepresentation)
        #expect(verified == signed.payload)
        #expect(verified.productId == "coins")
        #expect(verified.quantity == 3)
        #expect(verified.type == .consumable)
        #expect(verified.appAccountToken == token.uuidString.lowercased())
        #expect(verified.inAppOwnershipType == .purchased)
        #expect(verified.transactionReason == .purchase)
        #expect(verified.purchaseDate == StoreHarness.start)
        #expect(verified.price == 990)
        #expect(verified.currency == "USD")
        #expect(verified.storefront == "USA")
        #expect(verified.environment == .xcode)
        #expect(verified.transactionId == verified.originalTransactionId)

        let stored = try harness.ledgerTransactions()
        #expect(stored.map(\.id) == [verified.transactionId])
        #expect(stored.first?.jwsRepresentation == signed.jwsRepresentation)
        #expect(stored.first?.grantState == .granted)
        #expect(try harness.ledger.balances(customerID: "ana") == ["coin": 30])

        let notifications = try harness.store.notifications()
        #expect(notifications.map(\.summary) == ["ONE_TIME_CHARGE"])
        let notification = try #require(notifications.first)
        #expect(notification.customerID == "ana")
        #expect(notification.payload.version == "2.0")
        #expect(notification.payload.data?.bundleId == StoreHarness.bundleID)
        #expect(notification.payload.data?.environment == .xcode)
        #expect(notification.payload.data?.status == nil)
        #expect(notification.payload.data?.signedTransactionInfo == signed.jwsRepresentation)
        #expect(try independent.verifyAndDecodeNotification(notification.signedPayload).notificationUUID
                == notification.payload.notificationUUID)
    }

    @Test func aNonConsumableIsBoughtOnceAndComesBackWhenBoughtAgain() throws {
        let harness = try StoreHarness()
        let first = try harness.buy("skin.gold")
        let second = try harness.buy("skin.gold")
        #expect(second.transactionId == first.transactionId)
        #expect(try harness.ledgerTransactions().count == 1)
        #expect(try harness.sent() == ["ONE_TIME_CHARGE"])
    }

    @Test func aNonRenewingSubscriptionLastsTheConfiguredDuration() throws {
        let yearly = try StoreHarness()
        let year = try yearly.buy("season.pass")
        #expect(year.type == .nonRenewingSubscription)
        #expect(year.expiresDate == StoreHarness.date("2026-01-31T00:00:00Z"))
        #expect(try yearly.sent() == ["ONE_TIME_CHARGE"])

        let monthly = try StoreHarness { $0.nonRenewingSubscriptionDuration = StoreHarness.duration("P1M") }
        #expect(try monthly.buy("season.pass").expiresDate == StoreHarness.date("2025-02-28T00:00:00Z"))
    }

    @Test func aCancelledPurchaseChangesNothing() throws {
        let harness = try StoreHarness()
        let before = try harness.footprint()
        #expect(try harness.store.purchase("coins", customer: "ana", options: [.simulatesUserCancellation]) == .userCancelled)
        #expect(try harness.footprint() == before)
    }

    @Test func transactionIDsAreUniqueAndIncreasing() throws {
        let harness = try StoreHarness()
        let ids = try (0..<4).map { _ in try harness.buy("coins").transactionId! }
        #expect(Set(ids).count == 4)
        #expect(ids.map { Int64($0)! } == ids.map { Int64($0)! }.sorted())
    }

    static let refusals: [(options: Set<PurchaseOption>, product: String, customer: String, error: LocalStoreError)] = [
        ([], "nothing.here", "ana", .unknownProduct("nothing.here")),
        ([], "coins", "", .emptyCustomerID),
        ([.quantity(0)], "coins", "ana", .invalidQuantity(0, productID: "coins")),
        ([.quantity(11)], "coins", "ana", .invalidQuantity(11, productID: "coins")),
        ([.quantity(2)], "skin.gold", "ana", .invalidQuantity(2, productID: "skin.gold")),
        ([.quantity(1), .quantity(2)], "coins", "ana", .repeatedPurchaseOption("quantity")),
        ([.promotionalOffer(offerID: "premium.promo")], "coins", "ana", .offerRequiresSubscription(productID: "coins")),
        ([.promotionalOffer(offerID: "premium.promo"), .offerCode("Free month")], "pass.premium", "ana", .conflictingOffers),
        ([.promotionalOffer(offerID: "nope")], "pass.premium", "ana",
         .unknownPromotionalOffer(offerID: "nope", productID: "pass.premium")),
        ([.offerCode("ANY")], "pass.premium", "ana", .unknownOfferCode(code: "ANY", productID: "pass.premium")),
        ([.offerCode("")], "pass.basic", "ana", .unknownOfferCode(code: "", productID: "pass.basic")),
    ]

    @Test(arguments: refusals.indices)
    func badPurchasesAreRefusedAndChangeNothing(index: Int) throws {
        let refusal = Self.refusals[index]
        let harness = try StoreHarness()
        try harness.buy("coins")
        let before = try harness.footprint()
        #expect(throws: refusal.error) {
            try harness.store.purchase(refusal.product, customer: refusal.customer, options: refusal.options)
        }
        #expect(try harness.footprint() == before)
    }

    @Test func aBadConfigurationIsRefused() throws {
        #expect(throws: LocalStoreError.emptyBundleID) {
            try StoreHarness { $0.bundleID = "" }
        }
        #expect(throws: VerifierConfigurationError.missingAppAppleId) {
            try StoreHarness { $0.environment = .production }
        }
    }

    @Test func productionNotificationsCarryTheAppAppleID() throws {
        let harness = try StoreHarness {
            $0.environment = .production
            $0.appAppleID = 1_234_567
        }
        let transaction = try harness.buy("coins")
        #expect(transaction.environment == .production)
        let notification = try #require(try harness.store.notifications().first)
        #expect(notification.payload.data?.appAppleId == 1_234_567)
        #expect(notification.payload.data?.environment == .production)
    }
}
