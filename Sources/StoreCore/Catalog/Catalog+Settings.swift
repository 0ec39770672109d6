import Foundation

extension Catalog {
    /// The test-store settings of a `.storekit` file (`settings`), named after StoreKit Testing's
    /// `SKTestSession` properties. Every key is optional; missing keys take `SKTestSession`'s defaults.
    public struct Settings: Sendable, Equatable {
        /// The storefront, an ISO 3166-1 alpha-3 country code (`_storefront`; default "USA").
        public let storefront: String
        /// The locale identifier (`_locale`; default "en_US").
        public let localeIdentifier: String
        /// How fast store time passes (`_timeRate`; default real time).
        public let timeRate: TimeRate
        /// The rate Xcode uses instead of ``timeRate`` on devices too old for it (`_compatibilityTimeRate`);
        /// when the file gives one per device capability, the rate for the highest capability.
        public let compatibilityTimeRate: TimeRate?
        /// Whether purchases wait for a parent's approval (`_askToBuyEnabled`).
        public let askToBuyEnabled: Bool
        /// Whether renewals fail with a billing issue and enter billing retry (`_renewalBillingIssuesEnabled`).
        public let shouldEnterBillingRetryOnRenewal: Bool
        /// Whether a billing grace period applies during billing retry (`_billingGracePeriodEnabled`).
        public let billingGracePeriodIsEnabled: Bool
        /// Whether billing-issue messages are simulated (`_billingIssuesEnabled`, format 4.0).
        public let billingIssuesEnabled: Bool
        /// Whether every transaction fails (`_failTransactionsEnabled`; deprecated by StoreKit Testing).
        public let failTransactionsEnabled: Bool
        /// Whether purchases complete without confirmation dialogs (`_disableDialogs`).
        public let disableDialogs: Bool
        /// The App Store Connect app identifier of a synced configuration (`_applicationInternalID`).
        public let applicationInternalID: String?
        /// The developer team of a synced configuration (`_developerTeamID`).
        public let developerTeamID: String?
        /// When the configuration was last synced with App Store Connect (`_lastSynchronizedDate`).
        public let lastSynchronizedDate: Date?
        /// The simulated StoreKit errors, in file order (`_storeKitErrors`).
        public let storeKitErrors: [StoreKitErrorSetting]

        /// Creates settings; every argument defaults to what a file without the key means.
        public init(storefront: String = "USA", localeIdentifier: String = "en_US", timeRate: TimeRate = .realTime,
                    compatibilityTimeRate: TimeRate? = nil, askToBuyEnabled: Bool = false,
                    shouldEnterBillingRetryOnRenewal: Bool = false, billingGracePeriodIsEnabled: Bool = false,
                    billingIssuesEnabled: Bool = false, failTransactionsEnabled: Bool = false,
                    disableDialogs: Bool = false, applicationInternalID: String? = nil,
                    developerTeamID: String? = nil, lastSynchronizedDate: Date? = nil,
                    storeKitErrors: [StoreKitErrorSetting] = []) {
            self.storefront = storefront
            self.localeIdentifier = localeIdentifier
            self.timeRate = timeRate
            self.compatibilityTimeRate = compatibilityTimeRate
            self.askToBuyEnabled = askToBuyEnabled
            self.shouldEnterBillingRetryOnRenewal = shouldEnterBillingRetryOnRenewal
            self.billingGracePeriodIsEnabled = billingGracePeriodIsEnabled
            self.billingIssuesEnabled = billingIssuesEnabled
            self.failTransactionsEnabled = failTransactionsEnabled
            self.disableDialogs = disableDialogs
            self.applicationInternalID = applicationInternalID
            self.developerTeamID = developerTeamID
            self.lastSynchronizedDate = lastSynchronizedDate
            self.storeKitErrors = storeKitErrors
        }
    }
}
