import Foundation
import StoreCore

/// A purchase whose product and options passed every check that does not depend on the
/// store's state.
struct PurchaseRequest {
    let customerID: String
    let product: Product
    let quantity: Int
    let appAccountToken: String?
    let promotionalOffer: Product.SubscriptionOffer?
    let codeOffer: (code: String, offer: Product.SubscriptionInfo.CodeOffer)?
    let winBackOffer: Product.SubscriptionOffer?
    let simulatesAskToBuy: Bool?
    let simulatesUserCancellation: Bool

    /// Whether the customer asked for an offer, rather than the store applying the
    /// introductory offer.
    var hasExplicitOffer: Bool { promotionalOffer != nil || codeOffer != nil || winBackOffer != nil }

    /// The explicit offer as the store bills it.
    var explicitOffer: AppliedOffer? {
        if let promotionalOffer {
            return AppliedOffer(promotionalOffer, type: .promotionalOffer, identifier: promotionalOffer.id)
        }
        if let winBackOffer {
            return AppliedOffer(winBackOffer, type: .winBackOffer, identifier: winBackOffer.id)
        }
        if let codeOffer {
            return AppliedOffer(codeOffer.offer.offer, type: .offerCode,
                                identifier: codeOffer.offer.offer.referenceName ?? codeOffer.code)
        }
        return nil
    }

    init(productID: String, customerID: String, options: Set<PurchaseOption>, catalog: Catalog) throws(LocalStoreError) {
        guard !customerID.isEmpty else { throw .emptyCustomerID }
        guard let product = catalog.product(id: productID) else { throw .unknownProduct(productID) }
        var quantity: Int?
        var token: UUID?
        var promotionalOfferID: String?
        var code: String?
        var winBackOfferID: String?
        var askToBuy: Bool?
        var cancels = false
        func once<Value>(_ slot: inout Value?, _ value: Value, _ name: String) throws(LocalStoreError) {
            guard slot == nil else { throw .repeatedPurchaseOption(name) }
            slot = value
        }
        for option in options {
            switch option {
            case .quantity(let value): try once(&quantity, value, "quantity")
            case .appAccountToken(let value): try once(&token, value, "appAccountToken")
            case .promotionalOffer(let offerID): try once(&promotionalOfferID, offerID, "promotionalOffer")
            case .offerCode(let value): try once(&code, value, "offerCode")
            case .winBackOffer(let offerID): try once(&winBackOfferID, offerID, "winBackOffer")
            case .simulatesAskToBuy(let value): try once(&askToBuy, value, "simulatesAskToBuy")
            case .simulatesUserCancellation: cancels = true
            }
        }
        let count = quantity ?? 1
        let allowed = product.type == .consumable ? 1...10 : 1...1
        guard allowed.contains(count) else { throw .invalidQuantity(count, productID: productID) }
        let offersAsked = [promotionalOfferID, code, winBackOfferID].compactMap { $0 }.count
        if offersAsked > 0 {
            guard product.subscription != nil else { throw .offerRequiresSubscription(productID: productID) }
            guard offersAsked == 1 else { throw .conflictingOffers }
        }
        var promotionalOffer: Product.SubscriptionOffer?
        if let promotionalOfferID {
            guard let offer = product.subscription?.promotionalOffer(id: promotionalOfferID) else {
                throw .unknownPromotionalOffer(offerID: promotionalOfferID, productID: productID)
            }
            promotionalOffer = offer
        }
        var codeOffer: (String, Product.SubscriptionInfo.CodeOffer)?
        if let code {
            let offers = product.subscription?.codeOffers ?? []
            let named = offers.first { $0.offer.referenceName?.caseInsensitiveCompare(code) == .orderedSame }
            guard !code.isEmpty, let offer = named ?? (offers.count == 1 ? offers[0] : nil) else {
                throw .unknownOfferCode(code: code, productID: productID)
            }
            codeOffer = (code, offer)
        }
        self.customerID = customerID
        self.product = product
        self.quantity = count
        appAccountToken = token?.uuidString.lowercased()
        self.promotionalOffer = promotionalOffer
        self.codeOffer = codeOffer
        if let winBackOfferID {
            guard let offer = product.subscription?.winBackOffers.first(where: { $0.id == winBackOfferID }) else {
                throw .unknownWinBackOffer(offerID: winBackOfferID, productID: productID,
                                           known: product.subscription?.winBackOffers.compactMap(\.id) ?? [])
            }
            winBackOffer = offer
        } else {
            winBackOffer = nil
        }
        simulatesAskToBuy = askToBuy
        simulatesUserCancellation = cancels
    }
}
