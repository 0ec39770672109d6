/// One slot of the `_storeKitErrors` setting: an error the local test store can be told to
/// simulate for one StoreKit API, as StoreKit Testing's `SKTestFailures` does.
public struct StoreKitErrorSetting: Sendable, Equatable {
    /// The StoreKit APIs whose failures can be simulated, with the slot names Xcode writes.
    public enum API: String, Sendable, Hashable, CaseIterable {
        /// Loading products.
        case loadProducts = "Load Products"
        /// Purchasing.
        case purchase = "Purchase"
        /// Verifying transactions.
        case verification = "Verification"
        /// Syncing with the App Store.
        case appStoreSync = "App Store Sync"
        /// Reading subscription status.
        case subscriptionStatus = "Subscription Status"
        /// Reading the app transaction.
        case appTransaction = "App Transaction"
        /// Showing the manage-subscriptions sheet.
        case manageSubscriptionsSheet = "Manage Subscriptions Sheet"
        /// Showing the refund-request sheet.
        case refundRequestSheet = "Refund Request Sheet"
        /// Showing the offer-code redemption sheet.
        case offerCodeRedeemSheet = "Offer Code Redeem Sheet"
    }

    /// The error chosen for a slot (`current` in the file).
    public struct SimulatedError: Sendable, Equatable {
        /// The index of the error among those Xcode offers for the API.
        public let index: Int
        /// The error's family, such as "generic".
        public let type: String

        /// Creates a simulated error.
        public init(index: Int, type: String) {
            self.index = index
            self.type = type
        }
    }

    /// The slot name as written in the file.
    public let name: String
    /// Whether the simulated error is switched on.
    public let isEnabled: Bool
    /// The error chosen for the slot, if any.
    public let error: SimulatedError?

    /// The API the slot is for, or `nil` for a slot name this version does not know.
    public var api: API? { API(rawValue: name) }

    /// Creates a slot.
    public init(name: String, isEnabled: Bool, error: SimulatedError?) {
        self.name = name
        self.isEnabled = isEnabled
        self.error = error
    }
}
