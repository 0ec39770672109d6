import Foundation
@testable import StoreCore
@testable import StoreTesting
import Testing

@Suite struct LocalStoreFamilyTests {
    /// Ana and Bea in one family, Cy alone.
    static func family() throws -> StoreHarness {
        let harness = try StoreHarness()
        try harness.store.joinFamily(customer: "ana", familyID: "house")
        try harness.store.joinFamily(customer: "bea", familyID: "house")
        return harness
    }

    @Test func familyMembersGetSharedCopiesOfShareableNonConsumables() throws {
        let harness = try Self.family()
        let recipe = try harness.buy("recipe.pro")
        #expect(try harness.sent() == ["ONE_TIME_CHARGE", "ONE_TIME_CHARGE"])
        let copy = try #require(try harness.ledgerTransactions("bea").first)
        #expect(copy.productID == "recipe.pro")
        #expect(copy.ownershipType == .familyShared)
        #expect(copy.id != recipe.transactionId)
        #expect(copy.originalID == copy.id)
        #expect(copy.appAccountToken == nil)
        try harness.buy("skin.gold")
        #expect(try harness.ledgerTransactions("bea").count == 1)
        #expect(try harness.ledgerTransactions("cy").isEmpty)
    }

    @Test func aSharedSubscriptionFollowsItsPurchaser() throws {
        let harness = try Self.family()
        let premium = try harness.buy("pass.premium")
        #expect(try harness.sent(customer: "bea") == ["SUBSCRIBED/INITIAL_BUY"])
        let shared = try #require(try harness.store.subscriptions(customerID: "bea").first)
        #expect(shared.isFamilyShared)
        #expect(shared.sharedFromOriginalTransactionID == premium.transactionId)
        #expect(shared.originalTransactionID != premium.transactionId)
        let copy = try #require(try harness.ledgerTransactions("bea").first)
        #expect(copy.ownershipType == .familyShared)
        #expect(copy.offerType == nil)
        #expect(copy.expirationDate == premium.expiresDate)

        try harness.store.advance(by: StoreHarness.duration("P1M"))
        #expect(try harness.sent(customer: "bea") == ["SUBSCRIBED/INITIAL_BUY", "DID_RENEW"])
        let copies = try harness.ledgerTransactions("bea")
        #expect(copies.count == 2)
        #expect(Set(copies.map(\.originalID)) == [shared.originalTransactionID])
        #expect(copies.allSatisfy { $0.ownershipType == .familyShared })

        try harness.store.setAutoRenew(false, customer: "ana", groupID: "G1")
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        #expect(try harness.sent(customer: "bea").suffix(2) == ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY"])
        #expect(try harness.store.subscriptions(customerID: "bea").first?.state == .expired)
    }

    @Test func refundingThePurchaseRevokesTheFamilysCopies() throws {
        let harness = try Self.family()
        let recipe = try harness.buy("recipe.pro")
        let premium = try harness.buy("pass.premium")
        let sequence = try harness.lastSequence()
        try harness.store.refund(transactionID: recipe.transactionId!)
        try harness.store.refund(transactionID: premium.transactionId!)
        #expect(try harness.sent(after: sequence) == ["REFUND", "REVOKE", "REFUND", "REVOKE"])
        let revoked = try harness.ledgerTransactions("bea")
        #expect(revoked.count == 2)
        #expect(revoked.allSatisfy { $0.isRevoked })
        let notification = try #require(try harness.store.notifications(customerID: "bea").last)
        #expect(notification.transaction?.revocationType == .familyRevoke)
        #expect(notification.payload.data?.status == .revoked)
        #expect(throws: LocalStoreError.familySharedTransaction(transactionID: revoked[0].id)) {
            try harness.store.refund(transactionID: revoked[0].id)
        }
    }

    @Test func leavingTheFamilyRevokesWhatWasSharedBothWays() throws {
        let harness = try Self.family()
        try harness.buy("recipe.pro", "ana")
        try harness.buy("pass.family", "bea")
        let sequence = try harness.lastSequence()
        let revoked = try harness.store.leaveFamily(customer: "bea")
        #expect(revoked.map(\.summary) == ["REVOKE", "REVOKE"])
        #expect(Set(revoked.map(\.customerID)) == ["ana", "bea"])
        #expect(try harness.store.familyID(of: "bea") == nil)
        try harness.store.advance(by: StoreHarness.duration("P1M"))
        #expect(try harness.sent(after: sequence, customer: "ana") == ["REVOKE"])
        #expect(throws: LocalStoreError.notInFamily(customerID: "bea")) {
            try harness.store.leaveFamily(customer: "bea")
        }
    }

    @Test func joiningAFamilySharesWhatItsMembersAlreadyBought() throws {
        let harness = try StoreHarness()
        try harness.store.joinFamily(customer: "ana", familyID: "house")
        try harness.buy("recipe.pro")
        try harness.buy("pass.premium")
        let shared = try harness.store.joinFamily(customer: "bea", familyID: "house")
        #expect(shared.map(\.summary) == ["ONE_TIME_CHARGE", "SUBSCRIBED/INITIAL_BUY"])
        #expect(shared.allSatisfy { $0.customerID == "bea" })
        #expect(throws: LocalStoreError.alreadyInFamily(customerID: "bea", familyID: "house")) {
            try harness.store.joinFamily(customer: "bea", familyID: "other")
        }
        #expect(throws: LocalStoreError.emptyFamilyID) {
            try harness.store.joinFamily(customer: "cy", familyID: "")
        }
    }

    @Test func revokingSharingEndsOneMembersOrEveryMembersAccess() throws {
        let harness = try Self.family()
        try harness.store.joinFamily(customer: "cy", familyID: "house")
        let recipe = try harness.buy("recipe.pro")
        let beaCopy = try #require(try harness.ledgerTransactions("bea").first)
        #expect(try harness.store.revokeFamilySharing(transactionID: beaCopy.id).map(\.customerID) == ["bea"])
        #expect(try harness.store.revokeFamilySharing(transactionID: recipe.transactionId!).map(\.customerID) == ["cy"])
        #expect(throws: LocalStoreError.notFamilyShared(transactionID: recipe.transactionId!)) {
            try harness.store.revokeFamilySharing(transactionID: recipe.transactionId!)
        }
        #expect(throws: LocalStoreError.alreadyRevoked(transactionID: beaCopy.id)) {
            try harness.store.revokeFamilySharing(transactionID: beaCopy.id)
        }
    }

    @Test func changingToAProductThatIsNotShareableRevokesTheCopies() throws {
        let harness = try Self.family()
        try harness.buy("pass.plus")
        try harness.buy("pass.basic")
        let renewed = try harness.store.advance(by: StoreHarness.duration("P1M"))
        #expect(renewed.map(\.summary) == ["DID_RENEW", "REVOKE"])
        #expect(try harness.store.subscriptions(customerID: "bea").first?.state == .revoked)
    }
}
