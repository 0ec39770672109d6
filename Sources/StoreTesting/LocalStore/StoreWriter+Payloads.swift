import Foundation
import StoreCore

extension StoreWriter {
    /// The payload of a new transaction, before it is dated and signed.
    func transactionPayload(
        id: String, originalID: String, product: Product, purchaseDate: Date, originalPurchaseDate: Date,
        expirationDate: Date?, quantity: Int, appAccountToken: String?, ownership: InAppOwnershipType,
        reason: TransactionReason, offer: AppliedOffer?
    ) -> JWSTransactionDecodedPayload {
        let isSubscription = product.type == .autoRenewable
        return JWSTransactionDecodedPayload(
            originalTransactionId: originalID,
            transactionId: id,
            webOrderLineItemId: isSubscription ? nextWebOrderLineItemID() : nil,
            bundleId: configuration.bundleID,
            productId: product.id,
            subscriptionGroupIdentifier: product.subscription?.subscriptionGroupID,
            purchaseDate: purchaseDate,
            originalPurchaseDate: originalPurchaseDate,
            expiresDate: expirationDate,
            quantity: Int32(quantity),
            type: Self.transactionType(of: product.type),
            appAccountToken: appAccountToken,
            inAppOwnershipType: ownership,
            offerType: offer?.type,
            offerIdentifier: offer?.identifier,
            environment: configuration.environment,
            storefront: catalog.storefront.countryCode,
            transactionReason: reason,
            currency: catalog.storefront.currencyCode,
            price: offer?.priceMilliunits ?? Milliunits.of(product.price),
            offerDiscountType: offer?.discountType,
            offerPeriod: offer?.spanPeriod.iso8601)
    }

    /// The payload of a subscription's renewal info as it stands, before it is dated and signed;
    /// a lapsed subscription's names the win-back offers its customer may redeem now.
    func renewalInfoPayload(for subscription: SubscriptionRecord) throws -> JWSRenewalInfoDecodedPayload {
        let winBackOfferIDs = try eligibleWinBackOfferIDs(for: subscription)
        let renewalProduct = catalog.product(id: subscription.autoRenewProductID)
        let offer = subscription.pendingOffer
        let failing = subscription.state == .inGracePeriod || subscription.state == .inBillingRetryPeriod
        let ended = subscription.state == .expired || subscription.state == .revoked
        return JWSRenewalInfoDecodedPayload(
            expirationIntent: failing || ended ? subscription.expirationIntent : nil,
            originalTransactionId: subscription.originalID,
            autoRenewProductId: subscription.autoRenewProductID,
            productId: subscription.productID,
            autoRenewStatus: subscription.autoRenew ? .on : .off,
            isInBillingRetryPeriod: failing,
            gracePeriodExpiresDate: subscription.gracePeriodExpirationDate,
            offerType: offer?.type,
            offerIdentifier: offer?.identifier,
            environment: configuration.environment,
            recentSubscriptionStartDate: subscription.recentStartDate,
            renewalDate: subscription.expirationDate,
            currency: catalog.storefront.currencyCode,
            renewalPrice: offer?.priceMilliunits ?? renewalProduct.map { Milliunits.of($0.price) },
            offerDiscountType: offer?.discountType,
            eligibleWinBackOfferIds: winBackOfferIDs.isEmpty ? nil : winBackOfferIDs,
            appAccountToken: subscription.appAccountToken,
            offerPeriod: offer?.spanPeriod.iso8601)
    }

    /// The payload `type` of a catalog product type.
    static func transactionType(of type: ProductType) -> TransactionProductType {
        switch type {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .nonRenewable: .nonRenewingSubscription
        case .autoRenewable: .autoRenewableSubscription
        }
    }
}
