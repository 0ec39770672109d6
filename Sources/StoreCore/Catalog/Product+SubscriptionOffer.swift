import Foundation

extension Product {
    /// A discount on an auto-renewable subscription, with StoreKit 2's `Product.SubscriptionOffer` names.
    public struct SubscriptionOffer: Sendable, Equatable {
        /// Which kind of offer it is.
        public enum OfferType: String, Sendable, Hashable, CaseIterable {
            /// An introductory offer, for customers new to the subscription group.
            case introductory
            /// A promotional offer, granted by the app with a signed offer identifier.
            case promotional
            /// A win-back offer, for customers whose subscription lapsed.
            case winBack
            /// An offer redeemed with an offer code.
            case code
        }

        /// How the customer pays during the offer.
        public enum PaymentMode: String, Sendable, Hashable, CaseIterable {
            /// Nothing to pay: a free trial (`free` in the file).
            case freeTrial
            /// ``SubscriptionOffer/price`` each period, for ``SubscriptionOffer/periodCount`` periods.
            case payAsYouGo
            /// ``SubscriptionOffer/price`` once, for the whole offer.
            case payUpFront
        }

        /// The offer identifier used at purchase (`offerID` in the file); `nil` for introductory and
        /// code offers, which have none.
        public let id: String?
        /// The kind of offer.
        public let type: OfferType
        /// The internal reference name the developer gave the offer, when the file has one.
        public let referenceName: String?
        /// How the customer pays.
        public let paymentMode: PaymentMode
        /// The price: per period for ``PaymentMode/payAsYouGo``, in total for
        /// ``PaymentMode/payUpFront``, zero for ``PaymentMode/freeTrial``.
        public let price: Decimal
        /// The price formatted for the catalog's locale in the storefront's currency.
        public let displayPrice: String
        /// The length of one offer period.
        public let period: SubscriptionPeriod
        /// How many periods the offer lasts (`numberOfPeriods` in the file; 1 when absent).
        public let periodCount: Int
        /// The billing plan the offer applies to (format 5.0), when the file names one.
        public let billingPlanType: SubscriptionInfo.BillingPlanType?
        /// Who may redeem it, for a win-back offer; `nil` for other offers.
        public let winBackEligibility: WinBackEligibility?

        /// Creates an offer.
        public init(id: String?, type: OfferType, referenceName: String?, paymentMode: PaymentMode,
                    price: Decimal, displayPrice: String, period: SubscriptionPeriod, periodCount: Int,
                    billingPlanType: SubscriptionInfo.BillingPlanType?, winBackEligibility: WinBackEligibility? = nil) {
            self.id = id
            self.type = type
            self.referenceName = referenceName
            self.paymentMode = paymentMode
            self.price = price
            self.displayPrice = displayPrice
            self.period = period
            self.periodCount = periodCount
            self.billingPlanType = billingPlanType
            self.winBackEligibility = winBackEligibility
        }
    }
}
