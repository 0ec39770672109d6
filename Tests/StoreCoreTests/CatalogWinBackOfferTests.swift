import Foundation
import Testing
@testable import StoreCore

@Suite struct CatalogWinBackOfferTests {
    private func winBack(_ offer: String) throws(CatalogError) -> Product.SubscriptionOffer? {
        let subscription = CatalogJSON.subscription("monthly", extra: #""winbackOffers":[\#(offer)]"#)
        return try CatalogJSON.load(CatalogJSON.document(groups: [CatalogJSON.group([subscription])]))
            .product(id: "monthly")?.subscription?.winBackOffers.first
    }

    private let base = #""displayPrice":"0.99","offerID":"back","paymentMode":"payUpFront","subscriptionPeriod":"P3M""#

    @Test func anOfferWithoutEligibilityIsEligibleByStoreKitTestingsRules() throws {
        let offer = try #require(try winBack("{\(base)}"))
        #expect(offer.type == .winBack)
        #expect(offer.winBackEligibility == Product.WinBackEligibility())
        #expect(offer.winBackEligibility?.hasAppStoreConnectCriteria == false)
    }

    @Test func theTestingSettingReadsAsAWordOrABoolean() throws {
        #expect(try winBack(#"{\#(base),"eligibility":"Ineligible"}"#)?.winBackEligibility?.isEligible == false)
        #expect(try winBack(#"{\#(base),"eligibility":"Eligible"}"#)?.winBackEligibility?.isEligible == true)
        #expect(try winBack(#"{\#(base),"eligibility":false}"#)?.winBackEligibility?.isEligible == false)
        #expect(try winBack(#"{\#(base),"isEligible":false}"#)?.winBackEligibility?.isEligible == false)
    }

    @Test func appStoreConnectsCriteriaReadUnderTheirOwnNames() throws {
        let offer = try #require(try winBack(#"""
        {\#(base),"customerEligibilityPaidSubscriptionDurationInMonths":36,
         "customerEligibilityTimeSinceLastSubscribedInMonths":{"minimum":2,"maximum":24},
         "customerEligibilityWaitBetweenOffersInMonths":2}
        """#))
        #expect(offer.winBackEligibility == Product.WinBackEligibility(paidMonths: 36, monthsSinceLapse: 2...24, monthsBetweenOffers: 2))
    }

    @Test(arguments: [
        (#""customerEligibilityPaidSubscriptionDurationInMonths":25"#, "customerEligibilityPaidSubscriptionDurationInMonths",
         "expected 1 to 24, 36, 48 or 60 months, found 25"),
        (#""customerEligibilityWaitBetweenOffersInMonths":1"#, "customerEligibilityWaitBetweenOffersInMonths",
         "expected 2 to 24 months, found 1"),
        (#""customerEligibilityTimeSinceLastSubscribedInMonths":{"minimum":6,"maximum":3}"#,
         "customerEligibilityTimeSinceLastSubscribedInMonths.maximum", "expected at least the minimum, 6, found 3"),
        (#""customerEligibilityTimeSinceLastSubscribedInMonths":{"minimum":2}"#,
         "customerEligibilityTimeSinceLastSubscribedInMonths.maximum", "required key is missing"),
        (#""eligibility":"sometimes""#, "eligibility", #"expected Eligible or Ineligible"#),
    ])
    func aCriterionOutsideWhatAppStoreConnectAllowsIsRefusedWithItsPath(member: String, path: String, message: String) {
        let error = #expect(throws: CatalogError.self) { try winBack("{\(base),\(member)}") }
        #expect(error?.path == "subscriptionGroups[0].subscriptions[0].winbackOffers[0].\(path)")
        #expect(error?.problem.description.contains(message) == true, "\(String(describing: error))")
    }
}
