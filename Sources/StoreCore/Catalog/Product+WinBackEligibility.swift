extension Product {
    /// Who may redeem a win-back offer: StoreKit Testing's setting, and App Store Connect's
    /// criteria when the offer states them.
    ///
    /// StoreKit Testing makes an offer set to *Eligible* redeemable as soon as the subscription
    /// lapses (it expired; a billing grace period or billing retry is not a lapse). App Store Connect adds three criteria, which the `.storekit` entry may carry under
    /// their App Store Connect names; a local store's settings can impose them on every offer.
    public struct WinBackEligibility: Sendable, Hashable {
        /// StoreKit Testing's *Eligible* setting (`eligibility` or `isEligible` in the entry;
        /// eligible when absent).
        public var isEligible: Bool
        /// How many months the customer must have paid for the subscription
        /// (`customerEligibilityPaidSubscriptionDurationInMonths`: 1 to 24, 36, 48 or 60).
        public var paidMonths: Int?
        /// How many months since the subscription lapsed
        /// (`customerEligibilityTimeSinceLastSubscribedInMonths`: `minimum` and `maximum`, 1 to 24).
        public var monthsSinceLapse: ClosedRange<Int>?
        /// The months that must pass after a lapse before the customer redeems the same offer again
        /// (`customerEligibilityWaitBetweenOffersInMonths`: 2 to 24). Under App Store Connect's
        /// criteria, an offer without it is redeemed once.
        public var monthsBetweenOffers: Int?

        /// Creates eligibility settings; every App Store Connect criterion is optional.
        public init(isEligible: Bool = true, paidMonths: Int? = nil, monthsSinceLapse: ClosedRange<Int>? = nil,
                    monthsBetweenOffers: Int? = nil) {
            self.isEligible = isEligible
            self.paidMonths = paidMonths
            self.monthsSinceLapse = monthsSinceLapse
            self.monthsBetweenOffers = monthsBetweenOffers
        }

        /// Whether any of App Store Connect's criteria is set.
        public var hasAppStoreConnectCriteria: Bool {
            paidMonths != nil || monthsSinceLapse != nil || monthsBetweenOffers != nil
        }

        /// These settings with each criterion `override` sets taking its place.
        public func overridden(by override: WinBackEligibility) -> WinBackEligibility {
            WinBackEligibility(isEligible: isEligible, paidMonths: override.paidMonths ?? paidMonths,
                               monthsSinceLapse: override.monthsSinceLapse ?? monthsSinceLapse,
                               monthsBetweenOffers: override.monthsBetweenOffers ?? monthsBetweenOffers)
        }

        /// The paid durations App Store Connect offers, in months.
        public static let allowedPaidMonths: Set<Int> = Set(1...24).union([36, 48, 60])
        /// The months since a lapse App Store Connect offers.
        public static let allowedMonthsSinceLapse = 1...24
        /// The waits between offers App Store Connect offers, in months.
        public static let allowedMonthsBetweenOffers = 2...24
    }
}
