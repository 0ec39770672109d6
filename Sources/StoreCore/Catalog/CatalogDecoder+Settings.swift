import Foundation

/// The catalog's settings, app policies and subscription-offer key pair.
extension CatalogDecoder {
    static func settings(_ object: ConfigurationObject?) throws(ConfigurationReadFailure) -> Catalog.Settings {
        guard let object else { return Catalog.Settings() }
        var storeKitErrors: [StoreKitErrorSetting] = []
        for slot in try object.objects("_storeKitErrors") {
            let error = try slot.object("current").map { current throws(ConfigurationReadFailure) in
                StoreKitErrorSetting.SimulatedError(index: try current.requiredValue("index").integer(),
                                                    type: try current.string("type") ?? "")
            }
            storeKitErrors.append(StoreKitErrorSetting(name: try slot.requiredString("name"),
                                                       isEnabled: try slot.bool("enabled") ?? false, error: error))
        }
        return Catalog.Settings(
            storefront: try object.string("_storefront") ?? "USA",
            localeIdentifier: try object.string("_locale") ?? "en_US",
            timeRate: try object.value("_timeRate").map(timeRate) ?? .realTime,
            compatibilityTimeRate: try object.value("_compatibilityTimeRate").flatMap(compatibilityTimeRate),
            askToBuyEnabled: try object.bool("_askToBuyEnabled") ?? false,
            shouldEnterBillingRetryOnRenewal: try object.bool("_renewalBillingIssuesEnabled") ?? false,
            billingGracePeriodIsEnabled: try object.bool("_billingGracePeriodEnabled") ?? false,
            billingIssuesEnabled: try object.bool("_billingIssuesEnabled") ?? false,
            failTransactionsEnabled: try object.bool("_failTransactionsEnabled") ?? false,
            disableDialogs: try object.bool("_disableDialogs") ?? false,
            applicationInternalID: try object.string("_applicationInternalID"),
            developerTeamID: try object.string("_developerTeamID"),
            lastSynchronizedDate: try object.number("_lastSynchronizedDate").map(Date.init(timeIntervalSinceReferenceDate:)),
            storeKitErrors: storeKitErrors)
    }

    static func timeRate(_ value: ConfigurationValue) throws(ConfigurationReadFailure) -> TimeRate {
        let rawValue = try value.integer()
        guard let rate = TimeRate(rawValue: rawValue) else { throw value.failure(.unknownTimeRate(rawValue)) }
        return rate
    }

    /// Reads `_compatibilityTimeRate`: a rate, or an object of rates by device capability, of which
    /// the rate for the highest capability is kept (none for an empty object).
    static func compatibilityTimeRate(_ value: ConfigurationValue) throws(ConfigurationReadFailure) -> TimeRate? {
        guard value.raw is [String: Any] else { return try timeRate(value) }
        let byCapability = try value.object()
        let highest = byCapability.fields.keys.max { (Int($0) ?? .min, $0) < (Int($1) ?? .min, $1) }
        return try highest.flatMap(byCapability.value).map(timeRate)
    }

    static func appPolicies(_ object: ConfigurationObject) throws(ConfigurationReadFailure) -> AppPolicies {
        var policies: [AppPolicies.Policy] = []
        for policy in try object.objects("policies") {
            policies.append(AppPolicies.Policy(locale: try policy.string("locale") ?? "",
                                               text: try policy.string("policyText") ?? "",
                                               url: try policy.string("policyURL") ?? ""))
        }
        return AppPolicies(eula: try object.string("eula") ?? "", policies: policies)
    }

    static func keyPair(_ object: ConfigurationObject) throws(ConfigurationReadFailure) -> SubscriptionOffersKeyPair {
        let id = try object.requiredString("id")
        let keyValue = try object.requiredValue("privateKey")
        guard let key = Data(base64Encoded: try keyValue.string()) else { throw keyValue.failure(.invalidBase64) }
        return SubscriptionOffersKeyPair(id: id, privateKey: key)
    }
}
