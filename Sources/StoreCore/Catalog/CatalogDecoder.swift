import Foundation

/// Reads a `.storekit` document into a ``Catalog``, stopping at the first problem.
///
/// Keys present decide what is read, never the format version. Parts are read in this order:
/// `version`, `identifier`, `settings`, `products`, `nonRenewingSubscriptions`,
/// `subscriptionGroups`, `appPolicies`, `subscriptionOffersKeyPair`.
struct CatalogDecoder {
    private let localeIdentifier: String
    private let priceFormatter: Price.Formatter
    /// Where each product identifier was first seen, to report duplicates.
    private var productIDPaths: [String: JSONPath] = [:]
    /// Where each subscription group identifier was first seen, to report duplicates.
    private var groupIDPaths: [String: JSONPath] = [:]

    private init(localeIdentifier: String, priceFormatter: Price.Formatter) {
        self.localeIdentifier = localeIdentifier
        self.priceFormatter = priceFormatter
    }

    /// Decodes the document in `data`.
    static func decode(_ data: Data, fileName: String, localeIdentifier: String?,
                       storefront: String?) throws(ConfigurationReadFailure) -> Catalog {
        let root = try ConfigurationValue.parse(data).object()
        let formatVersion = try root.object("version").map { version throws(ConfigurationReadFailure) in
            FormatVersion(major: try version.requiredValue("major").integer(), minor: try version.integer("minor") ?? 0)
        }
        let identifier = try root.string("identifier")
        let settings = try Self.settings(try root.object("settings"))

        let chosenLocale = localeIdentifier ?? settings.localeIdentifier
        let locale = Locale(identifier: chosenLocale)
        let resolvedStorefront = Storefront(countryCode: storefront ?? settings.storefront, locale: locale)
        var decoder = CatalogDecoder(
            localeIdentifier: chosenLocale,
            priceFormatter: Price.Formatter(currencyCode: resolvedStorefront.currencyCode, locale: locale))

        var products: [Product] = []
        for object in try root.objects("products") {
            products.append(try decoder.product(object, defaultType: nil))
        }
        for object in try root.objects("nonRenewingSubscriptions") {
            products.append(try decoder.product(object, defaultType: .nonRenewable))
        }
        var groups: [SubscriptionGroup] = []
        for object in try root.objects("subscriptionGroups") {
            let group = try decoder.group(object)
            products.append(contentsOf: group.fileOrder)
            groups.append(group.group)
        }

        return Catalog(
            fileName: fileName, identifier: identifier, formatVersion: formatVersion, products: products,
            subscriptionGroups: groups, settings: settings,
            appPolicies: try root.object("appPolicies").map(Self.appPolicies),
            subscriptionOffersKeyPair: try root.object("subscriptionOffersKeyPair").map(Self.keyPair),
            localeIdentifier: chosenLocale, storefront: resolvedStorefront)
    }

    private typealias FormatVersion = Catalog.FormatVersion
    private typealias SubscriptionOffer = Product.SubscriptionOffer
    private typealias SubscriptionInfo = Product.SubscriptionInfo

    // MARK: Products

    /// Reads a product of `products` or `nonRenewingSubscriptions`; a missing `type` means `defaultType`.
    private mutating func product(_ object: ConfigurationObject,
                                  defaultType: ProductType?) throws(ConfigurationReadFailure) -> Product {
        let id = try claimProductID(object)
        return try product(object, id: id, allowedTypes: [.consumable, .nonConsumable, .nonRenewable],
                           defaultType: defaultType, subscription: nil)
    }

    /// Reads `productID` and records it, reporting an identifier already used in the file.
    private mutating func claimProductID(_ object: ConfigurationObject) throws(ConfigurationReadFailure) -> String {
        let idValue = try object.requiredValue("productID")
        let id = try idValue.string()
        if let firstPath = productIDPaths[id] {
            throw idValue.failure(.duplicateProductID(id, firstPath: firstPath.description))
        }
        productIDPaths[id] = idValue.path
        return id
    }

    /// Reads the members every kind of product has.
    private func product(_ object: ConfigurationObject, id: String, allowedTypes: [ProductType],
                         defaultType: ProductType?, subscription: SubscriptionInfo?) throws(ConfigurationReadFailure) -> Product {
        let type = try productType(object, allowed: allowedTypes, default: defaultType)
        let price = try requiredPrice(object, "displayPrice")
        let localizations = try Self.localizations(object)
        let localization = localizations.bestMatch(for: localeIdentifier)
        return Product(
            id: id, type: type, referenceName: try object.string("referenceName") ?? "",
            displayName: localization?.displayName ?? "", description: localization?.description ?? "",
            price: price, displayPrice: priceFormatter.displayPrice(price),
            isFamilyShareable: try object.bool("familyShareable") ?? false,
            localizations: localizations, subscription: subscription)
    }

    private func productType(_ object: ConfigurationObject, allowed: [ProductType],
                             default defaultType: ProductType?) throws(ConfigurationReadFailure) -> ProductType {
        guard let value = object.value("type") else {
            if let defaultType { return defaultType }
            throw ConfigurationReadFailure(path: .key(object.path, "type"), problem: .missingKey)
        }
        let word = try value.string()
        guard let type = ProductType(configurationType: word), allowed.contains(type) else {
            throw value.failure(.unknownValue(word, kind: "product type", allowed: allowed.map(\.configurationType)))
        }
        return type
    }

    // MARK: Subscription groups

    /// Reads a subscription group; returns it with its subscriptions in file order too.
    private mutating func group(
        _ object: ConfigurationObject
    ) throws(ConfigurationReadFailure) -> (group: SubscriptionGroup, fileOrder: [Product]) {
        let idValue = try object.requiredValue("id")
        let id = try idValue.string()
        if let firstPath = groupIDPaths[id] {
            throw idValue.failure(.duplicateSubscriptionGroupID(id, firstPath: firstPath.description))
        }
        groupIDPaths[id] = idValue.path
        let name = try object.string("name") ?? ""
        let localizations = try Self.localizations(object)
        let localizedName = localizations.bestMatch(for: localeIdentifier)?.displayName ?? ""
        let displayName = localizedName.isEmpty ? name : localizedName

        var subscriptions: [Product] = []
        for subscription in try object.objects("subscriptions") {
            subscriptions.append(try self.subscription(subscription, groupID: id, groupName: name,
                                                       groupDisplayName: displayName))
        }
        let group = SubscriptionGroup(id: id, name: name, displayName: displayName, localizations: localizations,
                                      subscriptions: subscriptions)
        return (group, subscriptions)
    }

    private mutating func subscription(_ object: ConfigurationObject, groupID: String, groupName: String,
                                       groupDisplayName: String) throws(ConfigurationReadFailure) -> Product {
        let id = try claimProductID(object)
        if let declaredValue = object.value("subscriptionGroupID") {
            let declared = try declaredValue.string()
            guard declared == groupID else {
                throw declaredValue.failure(.subscriptionGroupMismatch(found: declared, groupID: groupID))
            }
        }
        let levelValue = try object.requiredValue("groupNumber")
        let level = try levelValue.integer()
        guard level > 0 else { throw levelValue.failure(.notPositive(level)) }
        let period = try Self.period(try object.requiredValue("recurringSubscriptionPeriod"))

        let legacyIntroductoryOffer = try object.object("introductoryOffer").map { offer throws(ConfigurationReadFailure) in
            try self.offer(offer, type: .introductory)
        }
        var introductoryOffers: [SubscriptionOffer] = []
        for offer in try object.objects("introductoryOffers") {
            introductoryOffers.append(try self.offer(offer, type: .introductory))
        }
        let introductoryOffer = legacyIntroductoryOffer
            ?? introductoryOffers.first { $0.billingPlanType == .billedUpfront }
            ?? introductoryOffers.first
        if introductoryOffers.isEmpty, let legacyIntroductoryOffer {
            introductoryOffers = [legacyIntroductoryOffer]
        }

        var promotionalOffers: [SubscriptionOffer] = []
        for offer in try object.objects("adHocOffers") {
            promotionalOffers.append(try self.offer(offer, type: .promotional))
        }
        var winBackOffers: [SubscriptionOffer] = []
        for offer in try object.objects("winbackOffers") {
            winBackOffers.append(try self.offer(offer, type: .winBack))
        }
        var codeOffers: [SubscriptionInfo.CodeOffer] = []
        for offer in try object.objects("codeOffers") {
            codeOffers.append(try codeOffer(offer))
        }
        var billingPlans: [SubscriptionInfo.BillingPlan] = []
        for plan in try object.objects("billingPlans") {
            billingPlans.append(try billingPlan(plan))
        }

        let info = SubscriptionInfo(
            subscriptionGroupID: groupID, groupName: groupName, groupDisplayName: groupDisplayName, groupLevel: level,
            subscriptionPeriod: period, introductoryOffer: introductoryOffer, introductoryOffers: introductoryOffers,
            promotionalOffers: promotionalOffers, codeOffers: codeOffers, winBackOffers: winBackOffers,
            billingPlans: billingPlans)
        return try product(object, id: id, allowedTypes: [.autoRenewable], defaultType: .autoRenewable,
                           subscription: info)
    }

    // MARK: Offers and billing plans

    /// The `paymentMode` words of the file, with the payment mode each names.
    private static let paymentModeWords: [(word: String, mode: SubscriptionOffer.PaymentMode)] = [
        ("free", .freeTrial), ("payAsYouGo", .payAsYouGo), ("payUpFront", .payUpFront),
    ]

    /// Reads an offer. A free trial costs zero, whatever `displayPrice` says; other offers need one.
    private func offer(_ object: ConfigurationObject,
                       type: SubscriptionOffer.OfferType) throws(ConfigurationReadFailure) -> SubscriptionOffer {
        let modeValue = try object.requiredValue("paymentMode")
        let modeWord = try modeValue.string()
        guard let mode = Self.paymentModeWords.first(where: { $0.word == modeWord })?.mode else {
            throw modeValue.failure(.unknownValue(modeWord, kind: "payment mode",
                                                  allowed: Self.paymentModeWords.map(\.word)))
        }
        let price = mode == .freeTrial ? Decimal.zero : try requiredPrice(object, "displayPrice")
        let period = try Self.period(try object.requiredValue("subscriptionPeriod"))
        let periodCount = try object.value("numberOfPeriods").map { value throws(ConfigurationReadFailure) in
            let count = try value.integer()
            guard count > 0 else { throw value.failure(.notPositive(count)) }
            return count
        } ?? 1
        return SubscriptionOffer(
            id: try object.string("offerID"), type: type, referenceName: try object.string("referenceName"),
            paymentMode: mode, price: price, displayPrice: priceFormatter.displayPrice(price), period: period,
            periodCount: periodCount, billingPlanType: try object.value("billingPlanType").map(Self.billingPlanType),
            winBackEligibility: type == .winBack ? try Self.winBackEligibility(object) : nil)
    }

    /// Reads a win-back offer's eligibility: StoreKit Testing's setting (`eligibility`, a word or
    /// a boolean, or `isEligible`) and App Store Connect's criteria under their own names.
    private static func winBackEligibility(
        _ object: ConfigurationObject
    ) throws(ConfigurationReadFailure) -> Product.WinBackEligibility {
        typealias Eligibility = Product.WinBackEligibility
        var isEligible = try object.bool("isEligible") ?? true
        if let value = object.value("eligibility") {
            if let flag = try? value.bool() {
                isEligible = flag
            } else {
                let word = try value.string()
                switch word.lowercased() {
                case "eligible": isEligible = true
                case "ineligible", "not eligible", "noteligible": isEligible = false
                default:
                    throw value.failure(.unknownValue(word, kind: "win-back eligibility", allowed: ["Eligible", "Ineligible"]))
                }
            }
        }
        func months(_ value: ConfigurationValue, allowed: (Int) -> Bool,
                    words: String) throws(ConfigurationReadFailure) -> Int {
            let count = try value.integer()
            guard allowed(count) else { throw value.failure(.outOfRange(count, allowed: words)) }
            return count
        }
        let paidMonths = try object.value("customerEligibilityPaidSubscriptionDurationInMonths").map {
            value throws(ConfigurationReadFailure) in
            try months(value, allowed: Eligibility.allowedPaidMonths.contains, words: "1 to 24, 36, 48 or 60 months")
        }
        let monthsSinceLapse = try object.object("customerEligibilityTimeSinceLastSubscribedInMonths").map {
            range throws(ConfigurationReadFailure) -> ClosedRange<Int> in
            let minimum = try months(try range.requiredValue("minimum"), allowed: Eligibility.allowedMonthsSinceLapse.contains,
                                     words: "1 to 24 months")
            let maximumValue = try range.requiredValue("maximum")
            let maximum = try months(maximumValue, allowed: Eligibility.allowedMonthsSinceLapse.contains,
                                     words: "1 to 24 months")
            guard minimum <= maximum else {
                throw maximumValue.failure(.outOfRange(maximum, allowed: "at least the minimum, \(minimum)"))
            }
            return minimum...maximum
        }
        let monthsBetweenOffers = try object.value("customerEligibilityWaitBetweenOffersInMonths").map {
            value throws(ConfigurationReadFailure) in
            try months(value, allowed: Eligibility.allowedMonthsBetweenOffers.contains, words: "2 to 24 months")
        }
        return Eligibility(isEligible: isEligible, paidMonths: paidMonths, monthsSinceLapse: monthsSinceLapse,
                           monthsBetweenOffers: monthsBetweenOffers)
    }

    private func codeOffer(_ object: ConfigurationObject) throws(ConfigurationReadFailure) -> SubscriptionInfo.CodeOffer {
        let offer = try offer(object, type: .code)
        var eligibility = Set<SubscriptionInfo.CodeOffer.Eligibility>()
        for value in try object.value("eligibility")?.array() ?? [] {
            let word = try value.string()
            guard let kind = SubscriptionInfo.CodeOffer.Eligibility(rawValue: word) else {
                throw value.failure(.unknownValue(word, kind: "offer code eligibility",
                                                  allowed: SubscriptionInfo.CodeOffer.Eligibility.allCases.map(\.rawValue)))
            }
            eligibility.insert(kind)
        }
        return SubscriptionInfo.CodeOffer(offer: offer, eligibility: eligibility,
                                          isStackable: try object.bool("isStackable") ?? false)
    }

    /// Reads a billing plan; a missing `commitmentDisplayPrice` is the plan's price, a missing
    /// `isEnabled` means enabled.
    private func billingPlan(_ object: ConfigurationObject) throws(ConfigurationReadFailure) -> SubscriptionInfo.BillingPlan {
        let type = try Self.billingPlanType(try object.requiredValue("billingPlanType"))
        let price = try requiredPrice(object, "displayPrice")
        let commitmentPrice = try object.value("commitmentDisplayPrice").map(Self.price) ?? price
        return SubscriptionInfo.BillingPlan(
            type: type, price: price, displayPrice: priceFormatter.displayPrice(price),
            commitmentPrice: commitmentPrice, commitmentDisplayPrice: priceFormatter.displayPrice(commitmentPrice),
            isEnabled: try object.bool("isEnabled") ?? true)
    }

    private static func billingPlanType(
        _ value: ConfigurationValue
    ) throws(ConfigurationReadFailure) -> SubscriptionInfo.BillingPlanType {
        let word = try value.string()
        guard let type = SubscriptionInfo.BillingPlanType(rawValue: word) else {
            throw value.failure(.unknownValue(word, kind: "billing plan type",
                                              allowed: SubscriptionInfo.BillingPlanType.allCases.map(\.rawValue)))
        }
        return type
    }

    // MARK: Values

    private func requiredPrice(_ object: ConfigurationObject, _ key: String) throws(ConfigurationReadFailure) -> Decimal {
        try Self.price(try object.requiredValue(key))
    }

    private static func price(_ value: ConfigurationValue) throws(ConfigurationReadFailure) -> Decimal {
        let text = try value.string()
        guard let price = Price.parse(text) else { throw value.failure(.invalidPrice(text)) }
        return price
    }

    private static func period(_ value: ConfigurationValue) throws(ConfigurationReadFailure) -> SubscriptionPeriod {
        let text = try value.string()
        if let period = SubscriptionPeriod(iso8601: text) { return period }
        throw value.failure(StoreDuration(iso8601: text) == nil ? .invalidPeriod(text) : .unsupportedPeriod(text))
    }

    private static func localizations(_ object: ConfigurationObject) throws(ConfigurationReadFailure) -> [Localization] {
        var localizations: [Localization] = []
        for entry in try object.objects("localizations") {
            localizations.append(Localization(
                locale: try entry.string("locale") ?? "", displayName: try entry.string("displayName") ?? "",
                description: try entry.string("description") ?? ""))
        }
        return localizations
    }
}
