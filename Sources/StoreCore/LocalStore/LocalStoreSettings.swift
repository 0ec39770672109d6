/// The StoreKit Testing settings a ``LocalStore`` runs with: the `.storekit` file's settings,
/// which ``LocalStore/updateSettings(_:)`` may override (as setting an `SKTestSession`
/// property does) until ``LocalStore/resetSettings()``.
public struct LocalStoreSettings: Sendable, Hashable {
    /// Whether purchases wait for a parent's approval (`askToBuyEnabled`): a purchase returns
    /// ``PurchaseResult/pending(_:)`` until ``LocalStore/approveAskToBuy(_:)`` or
    /// ``LocalStore/declineAskToBuy(_:)``.
    public var askToBuyEnabled: Bool
    /// Whether renewals fail with a billing issue and enter billing retry
    /// (`shouldEnterBillingRetryOnRenewal`).
    public var shouldEnterBillingRetryOnRenewal: Bool
    /// Whether a failed renewal keeps service during a billing grace period
    /// (`billingGracePeriodIsEnabled`); it has no effect unless renewals fail.
    public var billingGracePeriodIsEnabled: Bool
    /// How fast subscriptions renew (`timeRate`).
    public var timeRate: TimeRate

    /// Creates settings.
    public init(askToBuyEnabled: Bool = false, shouldEnterBillingRetryOnRenewal: Bool = false,
                billingGracePeriodIsEnabled: Bool = false, timeRate: TimeRate = .realTime) {
        self.askToBuyEnabled = askToBuyEnabled
        self.shouldEnterBillingRetryOnRenewal = shouldEnterBillingRetryOnRenewal
        self.billingGracePeriodIsEnabled = billingGracePeriodIsEnabled
        self.timeRate = timeRate
    }

    /// The settings a `.storekit` file states.
    public init(_ settings: Catalog.Settings) {
        self.init(askToBuyEnabled: settings.askToBuyEnabled,
                  shouldEnterBillingRetryOnRenewal: settings.shouldEnterBillingRetryOnRenewal,
                  billingGracePeriodIsEnabled: settings.billingGracePeriodIsEnabled,
                  timeRate: settings.timeRate)
    }
}
