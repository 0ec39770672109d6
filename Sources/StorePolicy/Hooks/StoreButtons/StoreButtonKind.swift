/// The buttons a StoreKit store view can show, as `StoreButtonKind` names them.
public enum StoreButtonKind: String, Sendable, Codable, CaseIterable, Comparable {
    /// Closes the store.
    case cancellation
    /// Restores purchases (`AppStore.sync()`).
    case restorePurchases = "restore_purchases"
    /// Opens the offer-code redemption sheet.
    case redeemCode = "redeem_code"
    /// Signs in to an existing account.
    case signIn = "sign_in"
    /// Shows the terms of service and privacy policy.
    case policies

    /// Orders buttons as StoreKit lists them.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
