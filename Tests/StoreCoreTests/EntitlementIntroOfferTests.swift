import Foundation
import Testing
@testable import StoreCore

/// Introductory-offer eligibility: one introductory offer per customer per group, lost by any
/// subscription of the customer's own in the group.
@Suite struct EntitlementIntroOfferTests {
    typealias F = EntitlementFixtures

    @Test func aNewCustomerIsEligibleInEveryGroupOfTheCatalog() throws {
        let store = try EntitlementLedger()
        let state = try store.state(onDay: 0, customer: "newcomer")
        #expect(state.introOfferEligibility == ["PASS": true, "EXTRA": true])
        #expect(state.isEligibleForIntroOffer(groupID: "PASS"))
        #expect(state.isEligibleForIntroOffer(groupID: "NOT-IN-CATALOG"))
        #expect(try store.ledger.isEligibleForIntroOffer(customerID: "newcomer", groupID: "PASS", catalog: F.catalog))
    }

    @Test func subscribingWithTheIntroductoryOfferEndsEligibilityInThatGroupOnly() throws {
        let store = try EntitlementLedger()
        #expect(try store.state(onDay: 0).isEligibleForIntroOffer(groupID: "PASS"))
        try store.record(F.pass("300", bought: 1, offer: .introductoryOffer))

        let after = try store.state(onDay: 2)
        #expect(after.introOfferEligibility == ["PASS": false, "EXTRA": true])
        #expect(try !store.ledger.isEligibleForIntroOffer(customerID: "ada", groupID: "PASS", catalog: F.catalog))
        #expect(try store.ledger.isEligibleForIntroOffer(customerID: "ada", groupID: "EXTRA", catalog: F.catalog))
    }

    @Test func subscribingWithoutTheOfferAlsoEndsEligibilityForEveryLevelOfTheGroup() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("301", product: "pass.individual", bought: 1))
        let state = try store.state(onDay: 500)
        #expect(state.subscriptionStatus(forGroup: "PASS")?.state == .expired)
        #expect(!state.isEligibleForIntroOffer(groupID: "PASS"), "an expired subscription still counts")
    }

    @Test func aRefundedSubscriptionStillUsesUpTheOffer() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("302", bought: 1, signed: 2, revoked: 2, offer: .introductoryOffer))
        #expect(try !store.state(onDay: 3).isEligibleForIntroOffer(groupID: "PASS"))
    }

    @Test func aFamilySharedSubscriptionDoesNotUseUpTheCustomersOffer() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("303", product: "pass.family", bought: 1, ownership: .familyShared))
        let state = try store.state(onDay: 2)
        #expect(state.isEntitled(to: "pass.family"))
        #expect(state.isEligibleForIntroOffer(groupID: "PASS"))
    }

    @Test func otherPurchasesDoNotTouchEligibility() throws {
        let store = try EntitlementLedger()
        try store.record(
            F.transaction("304", product: "feeder.golden", type: .nonConsumable, bought: 1),
            F.transaction("305", product: "season.pass", type: .nonRenewingSubscription, bought: 1, expires: 90))
        #expect(try store.state(onDay: 2).introOfferEligibility == ["PASS": true, "EXTRA": true])
    }

    @Test func eligibilityIsPerCustomer() throws {
        let store = try EntitlementLedger()
        try store.record(F.pass("306", bought: 1), customer: "ada")
        #expect(try !store.state(onDay: 2, customer: "ada").isEligibleForIntroOffer(groupID: "PASS"))
        #expect(try store.state(onDay: 2, customer: "grace").isEligibleForIntroOffer(groupID: "PASS"))
    }
}
