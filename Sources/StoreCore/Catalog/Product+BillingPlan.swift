import Foundation

extension Product.SubscriptionInfo {
    /// How a subscription's price is billed (format 5.0, StoreKit's `Product.SubscriptionInfo.BillingPlanType`).
    public enum BillingPlanType: String, Sendable, Hashable, CaseIterable {
        /// The whole period's price at the start of each period (`BILLED_UPFRONT`).
        case billedUpfront = "BILLED_UPFRONT"
        /// Monthly payments over a commitment (`MONTHLY`).
        case monthly = "MONTHLY"
    }

    /// One way of paying for a subscription (format 5.0), such as a yearly subscription paid monthly.
    public struct BillingPlan: Sendable, Equatable {
        /// How the plan bills.
        public let type: BillingPlanType
        /// The amount of each payment.
        public let price: Decimal
        /// ``price`` formatted for the catalog's locale in the storefront's currency.
        public let displayPrice: String
        /// The total the customer commits to over the plan.
        public let commitmentPrice: Decimal
        /// ``commitmentPrice`` formatted for the catalog's locale in the storefront's currency.
        public let commitmentDisplayPrice: String
        /// Whether the plan is offered (`isEnabled` in the file).
        public let isEnabled: Bool

        /// Creates a billing plan.
        public init(type: BillingPlanType, price: Decimal, displayPrice: String, commitmentPrice: Decimal,
                    commitmentDisplayPrice: String, isEnabled: Bool) {
            self.type = type
            self.price = price
            self.displayPrice = displayPrice
            self.commitmentPrice = commitmentPrice
            self.commitmentDisplayPrice = commitmentDisplayPrice
            self.isEnabled = isEnabled
        }
    }
}
