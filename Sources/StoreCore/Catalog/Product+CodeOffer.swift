extension Product.SubscriptionInfo {
    /// An offer redeemed with an offer code, with who may redeem it and whether it stacks.
    ///
    /// The `.storekit` file does not store the codes themselves.
    public struct CodeOffer: Sendable, Equatable {
        /// Which customers may redeem an offer code.
        public enum Eligibility: String, Sendable, Hashable, CaseIterable {
            /// Customers who never subscribed in the group.
            case new
            /// Customers subscribed now.
            case existing
            /// Customers whose subscription expired.
            case expired
        }

        /// The offer's terms; its ``Product/SubscriptionOffer/type`` is ``Product/SubscriptionOffer/OfferType/code``.
        public let offer: Product.SubscriptionOffer
        /// Which customers may redeem it.
        public let eligibility: Set<Eligibility>
        /// Whether the offer can follow another offer the customer is in (`isStackable` in the file).
        public let isStackable: Bool

        /// Creates a code offer.
        public init(offer: Product.SubscriptionOffer, eligibility: Set<Eligibility>, isStackable: Bool) {
            self.offer = offer
            self.eligibility = eligibility
            self.isStackable = isStackable
        }
    }
}
