import Foundation

/// A customer's state as the outbox last reported it, and as every event carries it after its
/// change: what the customer is entitled to, each subscription, and the item balances.
///
/// The ledger keeps the last reported state of each customer beside the outbox, so an event is
/// what changed since the previous report, whatever brought the change: two deliveries of one
/// renewal (the app's and Apple's) report it once, and a notification that only confirms what
/// the clock already decided reports nothing again.
public struct ReportedCustomerState: Sendable, Hashable, Codable {
    /// The product ids the customer is entitled to, sorted.
    public var entitlements: [String]
    /// Every subscription the customer ever had, by original transaction id.
    public var subscriptions: [ReportedSubscription]
    /// The item balances that are not zero.
    public var balances: [String: Int]

    /// The reported form of `state`.
    public init(_ state: CustomerState) {
        entitlements = state.entitledProductIDs
        subscriptions = state.subscriptionStatuses.values.joined().map(ReportedSubscription.init)
            .sorted { $0.originalTransactionID < $1.originalTransactionID }
        balances = state.balances.filter { $0.value != 0 }
    }

    /// A customer the outbox never reported: nothing entitled, no subscription, no balance.
    public static let empty = ReportedCustomerState(entitlements: [], subscriptions: [], balances: [:])

    private init(entitlements: [String], subscriptions: [ReportedSubscription], balances: [String: Int]) {
        self.entitlements = entitlements
        self.subscriptions = subscriptions
        self.balances = balances
    }

    /// The subscription with `originalTransactionID`, if the customer has it.
    public func subscription(_ originalTransactionID: String) -> ReportedSubscription? {
        subscriptions.first { $0.originalTransactionID == originalTransactionID }
    }

    /// How long after the end of a period that is to renew the review waits for its renewal, as
    /// Apple delivers one a little late at times: an hour.
    static let renewalSettling: TimeInterval = 3600

    /// The first time after `now` at which the clock alone changes `state`: a period that ends
    /// (an hour later when it is to renew, ``renewalSettling``), a grace period that ends, or a
    /// non-renewing subscription that runs out. Nil when none does.
    static func reviewDate(of state: CustomerState, after now: Date) -> Date? {
        let subscriptionEnds = state.subscriptionStatuses.values.joined().compactMap { status -> Date? in
            switch status.state {
            case .subscribed:
                status.transaction.expirationDate?.addingTimeInterval(status.renewalInfo?.willAutoRenew == false ? 0 : renewalSettling)
            case .inGracePeriod: status.renewalInfo?.gracePeriodExpirationDate
            default: nil
            }
        }
        let otherEnds = state.currentEntitlements.filter { $0.productType == .nonRenewingSubscription }.compactMap(\.expirationDate)
        return (subscriptionEnds + otherEnds).filter { $0 > now }.min()
    }
}
