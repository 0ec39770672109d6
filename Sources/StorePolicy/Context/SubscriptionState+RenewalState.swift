import StoreCore

extension SubscriptionState {
    /// The policy's spelling of a StoreKit renewal state: `subscribed`, `expired`,
    /// `in_billing_retry`, `in_grace_period` or `revoked`.
    public init(_ renewalState: Product.SubscriptionInfo.RenewalState) {
        switch renewalState {
        case .subscribed: self = .subscribed
        case .expired: self = .expired
        case .inBillingRetryPeriod: self = .inBillingRetry
        case .inGracePeriod: self = .inGracePeriod
        case .revoked: self = .revoked
        }
    }
}
