extension Product {
    /// The subscription details of an auto-renewable subscription, with StoreKit 2's
    /// `Product.SubscriptionInfo` names.
    public struct SubscriptionInfo: Sendable, Equatable {
        /// The identifier of the subscription group the subscription belongs to.
        public let subscriptionGroupID: String
        /// The group's reference name (`name` in the file).
        public let groupName: String
        /// The group's localized display name, or its reference name when the group has no localization.
        public let groupDisplayName: String
        /// The subscription's level in its group (`groupNumber` in the file): 1 is the highest level
        /// of service, and several subscriptions may share a level.
        public let groupLevel: Int
        /// How long one renewal period lasts.
        public let subscriptionPeriod: SubscriptionPeriod
        /// The introductory offer; with several billing plans, the one billed up front.
        public let introductoryOffer: SubscriptionOffer?
        /// Every introductory offer, one per billing plan type (format 5.0); for older files, the
        /// single ``introductoryOffer`` when there is one.
        public let introductoryOffers: [SubscriptionOffer]
        /// Promotional offers (`adHocOffers` in the file), each with its offer identifier.
        public let promotionalOffers: [SubscriptionOffer]
        /// Offers redeemed with offer codes.
        public let codeOffers: [CodeOffer]
        /// Win-back offers for lapsed subscribers.
        public let winBackOffers: [SubscriptionOffer]
        /// Billing plans (format 5.0): how the subscription can be paid for.
        public let billingPlans: [BillingPlan]

        /// Creates subscription details.
        public init(subscriptionGroupID: String, groupName: String, groupDisplayName: String, groupLevel: Int,
                    subscriptionPeriod: SubscriptionPeriod, introductoryOffer: SubscriptionOffer?,
                    introductoryOffers: [SubscriptionOffer], promotionalOffers: [SubscriptionOffer],
                    codeOffers: [CodeOffer], winBackOffers: [SubscriptionOffer], billingPlans: [BillingPlan]) {
            self.subscriptionGroupID = subscriptionGroupID
            self.groupName = groupName
            self.groupDisplayName = groupDisplayName
            self.groupLevel = groupLevel
            self.subscriptionPeriod = subscriptionPeriod
            self.introductoryOffer = introductoryOffer
            self.introductoryOffers = introductoryOffers
            self.promotionalOffers = promotionalOffers
            self.codeOffers = codeOffers
            self.winBackOffers = winBackOffers
            self.billingPlans = billingPlans
        }

        /// The promotional offer with identifier `offerID`, if the subscription has one.
        public func promotionalOffer(id offerID: String) -> SubscriptionOffer? {
            promotionalOffers.first { $0.id == offerID }
        }
    }
}
