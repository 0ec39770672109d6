import Foundation
import StoreCore

/// An option of a ``LocalStore/purchase(_:customer:options:)``, after StoreKit's
/// `Product.PurchaseOption`, plus the choices a tester makes in StoreKit Testing.
///
/// Give each kind of option at most once. Options encode to JSON (Ask to Buy requests keep
/// theirs until they are answered).
public enum PurchaseOption: Sendable, Hashable, Codable {
    /// How many to buy: 1 to 10 of a consumable; other products are bought one at a time.
    case quantity(Int)
    /// The app's UUID for the customer, kept in the resulting transaction (`appAccountToken`).
    case appAccountToken(UUID)
    /// A promotional offer of the subscription, by its offer identifier (`offerID` in the
    /// `.storekit` file).
    case promotionalOffer(offerID: String)
    /// An offer code to redeem. The `.storekit` file keeps no codes, so a code names the
    /// subscription's code offer by its reference name, or is any code when the subscription
    /// has exactly one code offer.
    case offerCode(String)
    /// A win-back offer of the subscription, by its offer identifier (`offerID` in the
    /// `.storekit` file), for a customer whose subscription in the group lapsed and who is
    /// eligible for it (StoreKit's `winBackOffer(_:)`).
    case winBackOffer(offerID: String)
    /// Whether this purchase waits for a parent's approval, whatever the settings say
    /// (StoreKit's `simulatesAskToBuyInSandbox`).
    case simulatesAskToBuy(Bool)
    /// The customer cancels the payment sheet: the purchase returns
    /// ``PurchaseResult/userCancelled`` and changes nothing.
    case simulatesUserCancellation
}
