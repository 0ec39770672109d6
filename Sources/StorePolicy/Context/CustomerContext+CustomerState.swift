import Foundation
import LuaBridge
import StoreCore

extension CustomerContext {
    /// The policy's view of a customer whose state was computed from the ledger
    /// (``StoreCore/CustomerState``); `status_known` is true.
    ///
    /// - `entitlements`: the product ids of the current entitlements, sorted, each once.
    /// - `subscriptions`: for each group the customer ever subscribed in, the status that
    ///   speaks for the group (``StoreCore/CustomerState/subscriptionStatus(forGroup:)``: one
    ///   giving service before one that does not, the highest level of service first, then the
    ///   one ending last). Its `product_id` is the product of the status's latest transaction,
    ///   `group_level` its level in the catalog (0 when the catalog does not know it),
    ///   `state` the renewal state, `will_auto_renew` the renewal info's auto-renew status
    ///   (false without renewal info), `expiration_date` the latest transaction's
    ///   `expiresDate` (also during a grace period), and `intro_eligible` the customer's
    ///   introductory-offer eligibility in the group, and `win_back_offers` the win-back offers
    ///   the renewal info of a lapsed subscription names, and `paid_months` the months of service
    ///   the customer paid for in the group. A group the customer never subscribed in
    ///   is absent; the customer is eligible for its introductory offer.
    /// - `balances`: the ledger's item balances.
    /// - `attributes`: `attributes`, as the host passes them.
    /// - `events`: the ledger's merchandising events by name (``EventHistory``).
    /// - ``exposures``: the ledger's experiment exposures, which `ctx.experiments` keeps.
    public init(_ state: CustomerState, attributes: [String: LuaValue] = [:]) {
        var subscriptions: [String: SubscriptionSnapshot] = [:]
        for groupID in state.subscriptionStatuses.keys {
            guard let status = state.subscriptionStatus(forGroup: groupID) else { continue }
            subscriptions[groupID] = SubscriptionSnapshot(
                productID: status.transaction.productID, groupLevel: status.groupLevel ?? 0,
                state: SubscriptionState(status.state), willAutoRenew: status.willAutoRenew,
                expirationDate: status.expirationDate, introEligible: state.isEligibleForIntroOffer(groupID: groupID),
                winBackOfferIDs: status.state == .expired ? status.renewalInfo?.eligibleWinBackOfferIDs ?? [] : [],
                paidMonths: state.paidMonths(inGroup: groupID))
        }
        self.init(id: state.customerID, statusKnown: true, entitlements: state.entitledProductIDs,
                  subscriptions: subscriptions, balances: state.balances, attributes: attributes,
                  events: state.events.mapValues(EventHistory.init))
        for exposure in state.exposures {
            exposures[exposure.experiment, default: [:]][exposure.phase] = exposure.variant
        }
    }

    /// The policy's view of `customerID` as the ledger knows them at `date`; see
    /// ``init(_:attributes:)``.
    ///
    /// - Throws: what ``StoreCore/Ledger/customerState(customerID:catalog:at:signedData:)`` throws.
    public init(customerID: String, ledger: Ledger, catalog: Catalog? = nil, at date: Date = Date(),
                attributes: [String: LuaValue] = [:]) throws {
        self.init(try ledger.customerState(customerID: customerID, catalog: catalog, at: date, signedData: false), attributes: attributes)
    }
}
