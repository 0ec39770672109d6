import Foundation
import Testing
@testable import StoreCore

@Suite(.enabled(if: CatalogFixtures.isAvailable, "needs ../shared/fixtures/storekit"))
struct CatalogReferenceFileTests {
    private func inAppPurchases(_ catalog: Catalog) -> [Product] {
        catalog.products.filter { $0.type == .consumable || $0.type == .nonConsumable }
    }

    private func count(_ catalog: Catalog, _ type: ProductType) -> Int {
        catalog.products.count { $0.type == type }
    }

    @Test(arguments: CatalogFixtures.fileNames)
    func everyReferenceFileLoads(fileName: String) throws {
        let catalog = try CatalogFixtures.load(fileName)
        #expect(catalog.fileName == fileName)
        #expect(!catalog.products.isEmpty)
        for product in catalog.products {
            #expect(catalog.product(id: product.id) == product)
            #expect((product.type == .autoRenewable) == (product.subscription != nil))
        }
        #expect(count(catalog, .autoRenewable) == catalog.subscriptionGroups.map(\.subscriptions.count).reduce(0, +))
    }

    @Test func referenceFilesCoverEveryFormatVersion() throws {
        let versions = try Set(CatalogFixtures.fileNames.map { try CatalogFixtures.load($0).formatVersion?.description })
        #expect(versions == ["1.0", "1.1", "2.0", "3.0", "4.0", "5.0"])
    }

    @Test func backyardBirdsHasSixProductsAndAPassOfThreeLevels() throws {
        let catalog = try CatalogFixtures.load(CatalogFixtures.backyardBirds)
        #expect(catalog.formatVersion == Catalog.FormatVersion(major: 3, minor: 0))
        #expect(catalog.identifier == "DD874EC3")
        #expect(inAppPurchases(catalog).count == 6)
        #expect(inAppPurchases(catalog).allSatisfy { $0.type == .consumable })
        #expect(catalog.subscriptionGroups.count == 1)
        let pass = try #require(catalog.group(id: "6F3A93AB"))
        #expect(pass.name == "Backyard Birds Pass")
        #expect(pass.displayName == "Backyard Birds Pass")
        #expect(pass.subscriptions.map(\.id) == ["pass.premium", "pass.family", "pass.individual"])
        #expect(pass.subscriptions.compactMap(\.subscription?.groupLevel) == [1, 2, 3])
        for subscription in pass.subscriptions {
            let info = try #require(subscription.subscription)
            #expect(info.subscriptionPeriod == SubscriptionPeriod(value: 1, unit: .month))
            let intro = try #require(info.introductoryOffer)
            #expect(intro.type == .introductory)
            #expect(intro.paymentMode == .freeTrial)
            #expect(intro.period == SubscriptionPeriod(value: 1, unit: .month))
            #expect(intro.periodCount == 1)
            #expect(intro.price == 0)
            #expect(intro.id == nil)
            #expect(info.introductoryOffers == [intro])
        }
        let pellet = try #require(catalog.product(id: "pellet.single"))
        #expect(pellet.displayName == "Nutritional Pellet")
        #expect(pellet.description == "A nutritious snack that any bird loves.")
        #expect(pellet.price == Decimal(string: "1.99"))
        #expect(pellet.displayPrice == "$1.99")
        #expect(catalog.settings.storeKitErrors.count == 9)
        #expect(catalog.settings.storeKitErrors.compactMap(\.api) == StoreKitErrorSetting.API.allCases)
        #expect(catalog.settings.storeKitErrors.allSatisfy { !$0.isEnabled && $0.error == nil })
    }

    @Test func foodTruckHasBothPaidIntroductoryOfferKindsAndCodeOffers() throws {
        let catalog = try CatalogFixtures.load(CatalogFixtures.foodTruck)
        #expect(catalog.formatVersion == Catalog.FormatVersion(major: 2, minor: 0))
        #expect(inAppPurchases(catalog).map(\.id) == ["feature.annualhistory"])
        #expect(count(catalog, .autoRenewable) == 2)
        let monthly = try #require(catalog.product(id: "socialfeedplus.monthly")?.subscription)
        #expect(monthly.subscriptionGroupID == "20947887")
        #expect(monthly.groupName == "Social Feed+")
        let monthlyIntro = try #require(monthly.introductoryOffer)
        #expect(monthlyIntro.paymentMode == .payAsYouGo)
        #expect(monthlyIntro.price == Decimal(string: "2.49"))
        #expect(monthlyIntro.displayPrice == "$2.49")
        #expect(monthlyIntro.periodCount == 3)
        #expect(monthlyIntro.period.iso8601 == "P1M")
        let freeMonth = try #require(monthly.codeOffers.first)
        #expect(monthly.codeOffers.count == 1)
        #expect(freeMonth.offer.type == .code)
        #expect(freeMonth.offer.paymentMode == .freeTrial)
        #expect(freeMonth.offer.referenceName == "Free month")
        #expect(freeMonth.eligibility == [.new, .existing, .expired])
        #expect(freeMonth.isStackable)

        let yearly = try #require(catalog.product(id: "socialfeedplus.yearly")?.subscription)
        let yearlyIntro = try #require(yearly.introductoryOffer)
        #expect(yearlyIntro.paymentMode == .payUpFront)
        #expect(yearlyIntro.price == Decimal(string: "8.99"))
        #expect(yearlyIntro.period == SubscriptionPeriod(value: 3, unit: .month))
        #expect(yearlyIntro.periodCount == 1)
        let halfOff = try #require(yearly.codeOffers.first)
        #expect(halfOff.offer.paymentMode == .payUpFront)
        #expect(halfOff.offer.price == Decimal(string: "29.99"))
        #expect(halfOff.offer.period == SubscriptionPeriod(value: 1, unit: .year))
        #expect(halfOff.eligibility == [.new])
        #expect(!halfOff.isStackable)
    }

    @Test func foodTruckSpeaksArabicWhenAskedTo() throws {
        let arabic = try CatalogFixtures.load(CatalogFixtures.foodTruck, localeIdentifier: "ar")
        let history = try #require(arabic.product(id: "feature.annualhistory"))
        #expect(history.displayName == "سجل تاريخ لمدة عام")
        #expect(history.description == "بيانات ومعلومات تغطي عامًا كاملًا")
        #expect(history.localizations.map(\.locale) == ["en_US", "ar"])

        let egyptian = try CatalogFixtures.load(CatalogFixtures.foodTruck, localeIdentifier: "ar_EG")
        #expect(egyptian.product(id: "socialfeedplus.monthly")?.displayName == "الموجز الاجتماعي + الباقة الشه")

        let french = try CatalogFixtures.load(CatalogFixtures.foodTruck, localeIdentifier: "fr_FR")
        #expect(french.product(id: "feature.annualhistory")?.displayName == "Full year of history")
    }

    @Test func skDemoHasANonRenewingSubscriptionAndAcceleratedTime() throws {
        let catalog = try CatalogFixtures.load(CatalogFixtures.skDemo)
        #expect(inAppPurchases(catalog).count == 6)
        #expect(count(catalog, .nonRenewable) == 1)
        #expect(catalog.product(id: "nonRenewing.standard")?.type == .nonRenewable)
        #expect(count(catalog, .autoRenewable) == 3)
        #expect(catalog.settings.timeRate == .monthlyRenewalEveryThirtySeconds)
        #expect(catalog.settings.compatibilityTimeRate == .oneSecondIsOneDay)
        let pro = try #require(catalog.product(id: "subscription.pro")?.subscription?.introductoryOffer)
        #expect(pro.paymentMode == .payUpFront)
        #expect(pro.price == Decimal(string: "1.99"))
        #expect(pro.period == SubscriptionPeriod(value: 2, unit: .month))
    }

    @Test func originalSKDemoHasEightProductsAndThreeSubscriptions() throws {
        let catalog = try CatalogFixtures.load(CatalogFixtures.originalSKDemo)
        #expect(catalog.formatVersion == Catalog.FormatVersion(major: 1, minor: 1))
        #expect(inAppPurchases(catalog).count == 8)
        #expect(count(catalog, .autoRenewable) == 3)
        #expect(catalog.subscriptions(inGroup: "3F19ED53").map(\.id) == ["subscription.pro", "subscription.premium", "subscription.standard"])
        #expect(catalog.products.compactMap(\.subscription).allSatisfy { $0.codeOffers.isEmpty })
    }

    @Test func caffeinePalHasNineteenProductsAndOneYearlySubscription() throws {
        let catalog = try CatalogFixtures.load(CatalogFixtures.caffeinePal)
        #expect(inAppPurchases(catalog).count == 19)
        let pro = try #require(catalog.product(id: "subscription.caffeinePalPro.annual"))
        #expect(pro.subscription?.subscriptionPeriod == SubscriptionPeriod(value: 1, unit: .year))
        #expect(pro.subscription?.introductoryOffer == nil)
        #expect(catalog.product(id: "consumable.tip.small")?.displayName == "")
    }

    @Test func revenueCatVersionFiveHasBillingPlansAndIntroductoryOfferLists() throws {
        let catalog = try CatalogFixtures.load(CatalogFixtures.revenueCatUnitTests)
        #expect(catalog.formatVersion == Catalog.FormatVersion(major: 5, minor: 0))
        #expect(inAppPurchases(catalog).count == 2)
        #expect(count(catalog, .nonRenewable) == 1)
        #expect(catalog.subscriptionGroups.count == 2)
        #expect(count(catalog, .autoRenewable) == 4)
        let subscriptions = catalog.products.compactMap(\.subscription)
        #expect(subscriptions.map(\.billingPlans.count) == [1, 1, 2, 1])

        let commitment = try #require(catalog.product(id: "com.revenuecat.annual_with_commitment")?.subscription)
        #expect(commitment.introductoryOffer == nil)
        #expect(commitment.introductoryOffers.isEmpty)
        let monthlyPlan = try #require(commitment.billingPlans.first { $0.type == .monthly })
        #expect(monthlyPlan.price == Decimal(string: "0.5"))
        #expect(monthlyPlan.displayPrice == "$0.50")
        #expect(monthlyPlan.commitmentPrice == Decimal(string: "6.00"))
        #expect(monthlyPlan.commitmentDisplayPrice == "$6.00")
        #expect(monthlyPlan.isEnabled)

        let monthly = try #require(catalog.product(id: "com.revenuecat.monthly_4.99.1_week_intro")?.subscription)
        #expect(monthly.introductoryOffers.count == 1)
        #expect(monthly.introductoryOffer == monthly.introductoryOffers.first)
        #expect(monthly.introductoryOffer?.billingPlanType == .billedUpfront)
        #expect(monthly.promotionalOffers.map(\.id) == [
            "com.revenuecat.monthly_4.99.1_week_intro.year_discount",
            "com.revenuecat.monthly_4.99.1_week_intro.pay_as_you_go",
        ])
        let payAsYouGo = try #require(monthly.promotionalOffer(id: "com.revenuecat.monthly_4.99.1_week_intro.pay_as_you_go"))
        #expect(payAsYouGo.type == .promotional)
        #expect(payAsYouGo.paymentMode == .payAsYouGo)
        #expect(payAsYouGo.price == Decimal(string: "20.15"))
        #expect(payAsYouGo.periodCount == 2)
        #expect(payAsYouGo.referenceName == "pay as you go")
        #expect(monthly.winBackOffers.isEmpty)
        #expect(catalog.appPolicies == AppPolicies(eula: "", policies: [AppPolicies.Policy(locale: "en_US", text: "", url: "")]))
    }

    @Test func revenueCatTesterHasTwoGroupsWithoutIntroductoryOffers() throws {
        let catalog = try CatalogFixtures.load(CatalogFixtures.revenueCatTester)
        #expect(catalog.formatVersion == Catalog.FormatVersion(major: 4, minor: 0))
        #expect(inAppPurchases(catalog).count == 2)
        #expect(catalog.subscriptionGroups.map(\.name) == ["RCTTester Premium", "RCTTester Lite"])
        #expect(count(catalog, .autoRenewable) == 4)
        #expect(catalog.products.compactMap(\.subscription).allSatisfy { $0.introductoryOffer == nil && $0.introductoryOffers.isEmpty })
        #expect(catalog.settings.disableDialogs == false)
        #expect(catalog.settings.storeKitErrors.isEmpty)
    }

    @Test func revenueCatVersionOneLoadsWithDefaultSettings() throws {
        let catalog = try CatalogFixtures.load(CatalogFixtures.revenueCatVersion1)
        #expect(catalog.formatVersion == Catalog.FormatVersion(major: 1, minor: 0))
        #expect(catalog.identifier == nil)
        #expect(catalog.settings == Catalog.Settings())
        #expect(catalog.localeIdentifier == "en_US")
        #expect(catalog.storefront == Storefront(countryCode: "USA", locale: Locale(identifier: "en_US")))
        #expect(inAppPurchases(catalog).count == 1)
        #expect(count(catalog, .autoRenewable) == 2)
        let periods = catalog.products.compactMap(\.subscription?.introductoryOffer?.period.iso8601)
        #expect(periods == ["P1W", "P2W"])
    }
}
