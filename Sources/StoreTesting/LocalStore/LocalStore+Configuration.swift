import Foundation
import StoreCore

extension LocalStore {
    /// What a ``LocalStore`` signs as and how it keeps time.
    public struct Configuration: Sendable, Hashable {
        /// The app's bundle identifier, in every transaction and notification.
        public var bundleID: String
        /// The environment the store signs for: `Xcode` (StoreKit Testing), `Sandbox` or
        /// `Production`.
        public var environment: AppStoreEnvironment
        /// The app's Apple ID, in notifications; required for `Production`.
        public var appAppleID: Int64?
        /// The app's Apple ID where Apple always gives one (a Retention Messaging request):
        /// ``appAppleID``, else a number of nine digits derived from the bundle identifier,
        /// the same every time.
        public var requiredAppAppleID: Int64 {
            if let appAppleID { return appAppleID }
            let digest = SHA256Digest.bytes(of: Data("app:\(bundleID)".utf8))
            return 100_000_000 + Int64(digest.prefix(8).reduce(0) { ($0 << 8 | UInt64($1)) % 900_000_000 })
        }
        /// Where the store reads the time.
        public var clock: StoreClock
        /// How long a non-renewing subscription lasts from its purchase: a `.storekit` file
        /// gives such products no period, so the store applies this one to all of them
        /// (one year by default).
        public var nonRenewingSubscriptionDuration: StoreDuration

        /// Creates a configuration.
        public init(bundleID: String, environment: AppStoreEnvironment = .xcode, appAppleID: Int64? = nil,
                    clock: StoreClock = .system,
                    nonRenewingSubscriptionDuration: StoreDuration = StoreDuration(years: 1)) {
            self.bundleID = bundleID
            self.environment = environment
            self.appAppleID = appAppleID
            self.clock = clock
            self.nonRenewingSubscriptionDuration = nonRenewingSubscriptionDuration
        }
    }
}
