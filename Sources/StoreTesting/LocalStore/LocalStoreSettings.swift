import StoreCore

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
    /// The StoreKit APIs whose calls fail, as `setSimulatedError(_:forAPI:)` makes them:
    /// ``LocalStore/purchase(_:customer:options:)`` for ``StoreKitErrorSetting/API/purchase``,
    /// a purchase redeeming an offer code for ``StoreKitErrorSetting/API/offerCodeRedeemSheet``,
    /// and ``LocalStore/sync(customer:)`` for ``StoreKitErrorSetting/API/appStoreSync``. The
    /// local store has no other of these APIs, so the other slots change nothing here.
    public var simulatedFailures: Set<StoreKitErrorSetting.API>
    /// App Store Connect's win-back criteria imposed on every win-back offer, each in place of
    /// what the offer states (its `isEligible` is not used). With none set, and none in the
    /// offers, win-back offers follow StoreKit Testing: redeemable as soon as a subscription lapses.
    public var winBackCriteria: Product.WinBackEligibility

    /// Creates settings.
    public init(askToBuyEnabled: Bool = false, shouldEnterBillingRetryOnRenewal: Bool = false,
                billingGracePeriodIsEnabled: Bool = false, timeRate: TimeRate = .realTime,
                simulatedFailures: Set<StoreKitErrorSetting.API> = [],
                winBackCriteria: Product.WinBackEligibility = Product.WinBackEligibility()) {
        self.askToBuyEnabled = askToBuyEnabled
        self.shouldEnterBillingRetryOnRenewal = shouldEnterBillingRetryOnRenewal
        self.billingGracePeriodIsEnabled = billingGracePeriodIsEnabled
        self.timeRate = timeRate
        self.simulatedFailures = simulatedFailures
        self.winBackCriteria = winBackCriteria
    }

    /// The settings a `.storekit` file states. Its enabled `_storeKitErrors` slots are the
    /// simulated failures, and `_failTransactionsEnabled` makes purchases fail as well.
    public init(_ settings: Catalog.Settings) {
        var failures = Set(settings.storeKitErrors.filter(\.isEnabled).compactMap(\.api))
        if settings.failTransactionsEnabled { failures.insert(.purchase) }
        self.init(askToBuyEnabled: settings.askToBuyEnabled,
                  shouldEnterBillingRetryOnRenewal: settings.shouldEnterBillingRetryOnRenewal,
                  billingGracePeriodIsEnabled: settings.billingGracePeriodIsEnabled,
                  timeRate: settings.timeRate,
                  simulatedFailures: failures)
    }
}
