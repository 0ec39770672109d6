import Foundation
import StoreCore

/// Why the ``LocalStore`` refused a request. A refused request changes nothing.
public enum LocalStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The configuration has an empty bundle identifier.
    case emptyBundleID
    /// A customer id is empty.
    case emptyCustomerID
    /// The catalog has no product with this identifier.
    case unknownProduct(String)
    /// The catalog has no subscription group with this identifier.
    case unknownSubscriptionGroup(String)
    /// A kind of purchase option was given more than once; carries its name.
    case repeatedPurchaseOption(String)
    /// The quantity is not 1–10 for a consumable, or not 1 for another product.
    case invalidQuantity(Int, productID: String)
    /// An offer was asked for a product that is not an auto-renewable subscription.
    case offerRequiresSubscription(productID: String)
    /// More than one of a promotional offer, an offer code and a win-back offer was given.
    case conflictingOffers
    /// The subscription has no promotional offer with this identifier.
    case unknownPromotionalOffer(offerID: String, productID: String)
    /// The subscription has no win-back offer with this identifier; `known` lists those it has.
    case unknownWinBackOffer(offerID: String, productID: String, known: [String])
    /// The customer may not redeem this win-back offer now: `why` says what their subscription
    /// in the group is, and `eligible` lists the offers they may redeem.
    case winBackOfferNotEligible(offerID: String, productID: String, customerID: String, why: String, eligible: [String])
    /// No code offer of the subscription answers to this code.
    case unknownOfferCode(code: String, productID: String)
    /// The customer may not redeem this offer code: it is for customers who are new to the
    /// group, subscribed, or expired, and the customer is not.
    case offerCodeNotEligible(code: String, productID: String)
    /// The customer's subscription in the group has a billing issue: resolve it or let it
    /// expire before buying in the group again.
    case subscriptionHasBillingIssue(customerID: String, groupID: String)
    /// The customer has no subscription in the group.
    case noSubscription(customerID: String, groupID: String)
    /// The operation needs an active subscription, and the customer's is in another state.
    case subscriptionNotActive(customerID: String, groupID: String, state: LocalStore.Subscription.State)
    /// A renewal was forced while automatic renewal is off.
    case autoRenewIsOff(customerID: String, groupID: String)
    /// The subscription is not in its billing grace period or billing retry.
    case noBillingIssue(customerID: String, groupID: String)
    /// No transaction with this id was issued by the store.
    case unknownTransaction(String)
    /// The customer already asked for a refund of this transaction, and it is not decided yet.
    case refundAlreadyRequested(transactionID: String)
    /// Nobody asked for a refund of this transaction, or the request was decided.
    case noRefundRequest(transactionID: String)
    /// The transaction is already refunded or revoked.
    case alreadyRevoked(transactionID: String)
    /// The transaction is a family member's shared copy, which only its purchaser's refund ends.
    case familySharedTransaction(transactionID: String)
    /// The transaction is not shared with a family, so there is no sharing to revoke.
    case notFamilyShared(transactionID: String)
    /// A family id is empty.
    case emptyFamilyID
    /// The customer already belongs to a family.
    case alreadyInFamily(customerID: String, familyID: String)
    /// The customer belongs to no family.
    case notInFamily(customerID: String)
    /// No Ask to Buy request has this id.
    case unknownAskToBuyRequest(String)
    /// The Ask to Buy request was already answered.
    case askToBuyRequestAlreadyDecided(id: String, state: AskToBuyRequest.State)
    /// The cancel screen needs a retention URL (``LocalStore/setRetentionURL(_:)``).
    case noRetentionURL
    /// The transaction is no active auto-renewable subscription, so there is nothing to cancel.
    case noActiveSubscription(transactionID: String)
    /// The clock can only move forward, by a duration with no negative component.
    case negativeDuration(StoreDuration)
    /// The settings make this StoreKit API fail (``LocalStoreSettings/simulatedFailures``).
    case simulatedFailure(StoreKitErrorSetting.API)
    /// The store's state was first opened by a store of another bundle identifier or
    /// environment (``LocalStore/rememberedIdentity(in:)``).
    case identityMismatch(remembered: LocalStore.Identity, given: LocalStore.Identity)

    /// One line describing the refusal.
    public var description: String {
        switch self {
        case .emptyBundleID:
            "the bundle identifier must not be empty"
        case .identityMismatch(let remembered, let given):
            "the store belongs to \(remembered.bundleID) in \(remembered.environment.rawValue), "
                + "not \(given.bundleID) in \(given.environment.rawValue)"
        case .emptyCustomerID:
            "a customer id must not be empty"
        case .noRetentionURL:
            "no retention URL: set one with settings --retention-url URL"
        case .noActiveSubscription(let id):
            "\(id) is no active auto-renewable subscription: there is nothing to cancel"
        case .unknownProduct(let id):
            "the catalog has no product '\(id)'"
        case .unknownSubscriptionGroup(let id):
            "the catalog has no subscription group '\(id)'"
        case .repeatedPurchaseOption(let name):
            "the purchase option \(name) is given more than once"
        case .invalidQuantity(let quantity, let productID):
            "a quantity of \(quantity) is not allowed for '\(productID)' (1–10 for a consumable, 1 otherwise)"
        case .offerRequiresSubscription(let productID):
            "'\(productID)' is not an auto-renewable subscription, so no offer applies"
        case .conflictingOffers:
            "a purchase takes one offer: a promotional offer, an offer code or a win-back offer"
        case .unknownWinBackOffer(let offerID, let productID, let known):
            "'\(productID)' has no win-back offer '\(offerID)' "
                + (known.isEmpty ? "(it has none)" : "(its win-back offers: \(known.joined(separator: ", ")))")
        case .winBackOfferNotEligible(let offerID, let productID, let customerID, let why, let eligible):
            "\(customerID) may not redeem the win-back offer '\(offerID)' of '\(productID)': \(why)"
                + (eligible.isEmpty ? "" : " (eligible now: \(eligible.joined(separator: ", ")))")
        case .unknownPromotionalOffer(let offerID, let productID):
            "'\(productID)' has no promotional offer '\(offerID)'"
        case .unknownOfferCode(let code, let productID):
            "no code offer of '\(productID)' answers to the code '\(code)'"
        case .offerCodeNotEligible(let code, let productID):
            "the customer is not eligible for the offer code '\(code)' of '\(productID)'"
        case .subscriptionHasBillingIssue(let customerID, let groupID):
            "the subscription of \(customerID) in group \(groupID) has a billing issue; resolve it or let it expire first"
        case .noSubscription(let customerID, let groupID):
            "\(customerID) has no subscription in group \(groupID)"
        case .subscriptionNotActive(let customerID, let groupID, let state):
            "the subscription of \(customerID) in group \(groupID) is \(state.rawValue), not active"
        case .autoRenewIsOff(let customerID, let groupID):
            "the subscription of \(customerID) in group \(groupID) does not renew automatically; turn auto-renew on first"
        case .noBillingIssue(let customerID, let groupID):
            "the subscription of \(customerID) in group \(groupID) has no billing issue to resolve"
        case .unknownTransaction(let id):
            "the store issued no transaction \(id)"
        case .refundAlreadyRequested(let id):
            "a refund of transaction \(id) is already requested; approve it with refund or decline it with refund-decline"
        case .noRefundRequest(let id):
            "no refund of transaction \(id) is waiting for a decision; ask for one with refund-request"
        case .alreadyRevoked(let id):
            "transaction \(id) is already refunded or revoked"
        case .familySharedTransaction(let id):
            "transaction \(id) is shared through Family Sharing; refund the purchaser's transaction instead"
        case .notFamilyShared(let id):
            "transaction \(id) is not shared with a family"
        case .emptyFamilyID:
            "a family id must not be empty"
        case .alreadyInFamily(let customerID, let familyID):
            "\(customerID) already belongs to family \(familyID)"
        case .notInFamily(let customerID):
            "\(customerID) belongs to no family"
        case .unknownAskToBuyRequest(let id):
            "there is no Ask to Buy request \(id)"
        case .askToBuyRequestAlreadyDecided(let id, let state):
            "the Ask to Buy request \(id) is already \(state.rawValue)"
        case .negativeDuration(let duration):
            "the clock cannot move back (\(duration))"
        case .simulatedFailure(let api):
            "simulated \(api.rawValue) failure: the store's settings make this call fail"
        }
    }
}
