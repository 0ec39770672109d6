import Foundation
import StoreCore

extension StoreWriter {
    /// Makes a purchase and returns the transaction to hand back to the app.
    ///
    /// A non-consumable the customer owns is not bought again: its transaction comes back. (The
    /// catalog gives every auto-renewable subscription its subscription info, so the one-time
    /// branch never sees one.)
    func purchase(_ request: PurchaseRequest) throws -> TransactionRecord {
        if let subscription = request.product.subscription {
            return try subscribe(request, info: subscription)
        }
        switch request.product.type {
        case .consumable, .autoRenewable:
            return try buyOnce(request, expirationDate: nil)
        case .nonRenewable:
            return try buyOnce(request, expirationDate: timeline.date(
                after: configuration.nonRenewingSubscriptionDuration, from: now))
        case .nonConsumable:
            if let owned = try transactions(
                "WHERE customer_id = ? AND product_id = ? AND shared_from IS NULL AND revocation_date IS NULL LIMIT 1",
                [request.customerID, request.product.id]).first {
                return owned
            }
            return try buyOnce(request, expirationDate: nil)
        }
    }

    /// A consumable, non-consumable or non-renewing subscription: one transaction and a
    /// `ONE_TIME_CHARGE` notification; a family-shareable non-consumable is shared.
    private func buyOnce(_ request: PurchaseRequest, expirationDate: Date?) throws -> TransactionRecord {
        let id = nextTransactionID()
        let payload = transactionPayload(
            id: id, originalID: id, product: request.product, purchaseDate: now, originalPurchaseDate: now,
            expirationDate: expirationDate, quantity: request.quantity, appAccountToken: request.appAccountToken,
            ownership: .purchased, reason: .purchase, offer: nil)
        let record = try issue(payload, productType: request.product.type, customerID: request.customerID,
                               sharedFrom: nil, at: now)
        try notify(.oneTimeCharge, nil, customerID: request.customerID, at: now, transaction: record,
                   renewalInfoJWS: nil, status: nil)
        if request.product.type == .nonConsumable, request.product.isFamilyShareable {
            for member in try familyMembers(sharingWith: request.customerID) {
                try shareOneTimePurchase(record, with: member)
            }
        }
        return record
    }

    // MARK: - Subscriptions

    /// Buys an auto-renewable subscription: a new subscription, a resubscription, or a change
    /// of plan within the group, following StoreKit's rules.
    private func subscribe(_ request: PurchaseRequest, info: Product.SubscriptionInfo) throws -> TransactionRecord {
        let product = request.product
        let groupID = info.subscriptionGroupID
        let existing = try ownSubscription(customerID: request.customerID, groupID: groupID)
        if let codeOffer = request.codeOffer {
            try checkEligibility(for: codeOffer.offer, code: codeOffer.code, productID: product.id, existing: existing)
        }
        if let winBackOffer = request.winBackOffer {
            let eligible = try existing.map(eligibleWinBackOfferIDs(for:)) ?? []
            guard let offerID = winBackOffer.id, eligible.contains(offerID) else {
                let why = switch existing?.state {
                case nil: "they never subscribed in the group"
                case .subscribed?: "their subscription is active; a win-back offer is for one that lapsed"
                case .inGracePeriod?, .inBillingRetryPeriod?: "their subscription is failing to renew, which is not a lapse"
                case .revoked?: "their subscription was refunded"
                case .expired?: "the offer's eligibility does not admit them now"
                }
                throw LocalStoreError.winBackOfferNotEligible(offerID: winBackOffer.id ?? "", productID: product.id,
                                                              customerID: request.customerID, why: why, eligible: eligible)
            }
        }
        guard var subscription = existing else {
            return try startSubscription(request, info: info)
        }
        switch subscription.state {
        case .inGracePeriod, .inBillingRetryPeriod:
            throw LocalStoreError.subscriptionHasBillingIssue(customerID: request.customerID, groupID: groupID)
        case .expired, .revoked:
            return try resubscribe(&subscription, request, info: info)
        case .subscribed:
            return try changePlan(&subscription, request, info: info)
        }
    }

    private func checkEligibility(for offer: Product.SubscriptionInfo.CodeOffer, code: String, productID: String,
                                  existing: SubscriptionRecord?) throws {
        let standing: Product.SubscriptionInfo.CodeOffer.Eligibility = switch existing?.state {
        case nil: .new
        case .subscribed?, .inGracePeriod?, .inBillingRetryPeriod?: .existing
        case .expired?, .revoked?: .expired
        }
        guard offer.eligibility.contains(standing) else {
            throw LocalStoreError.offerCodeNotEligible(code: code, productID: productID)
        }
    }

    /// The offer for a period that starts with this purchase: the one asked for, else the
    /// introductory offer when the customer never subscribed in the group.
    private func offerForNewPeriod(_ request: PurchaseRequest) throws -> AppliedOffer? {
        if let explicit = request.explicitOffer { return explicit }
        guard let info = request.product.subscription, let intro = info.introductoryOffer,
              try LocalStore.isEligibleForIntroductoryOffer(
                customerID: request.customerID, groupID: info.subscriptionGroupID, in: connection)
        else { return nil }
        return AppliedOffer(intro, type: .introductoryOffer, identifier: nil)
    }

    /// Issues the transaction of a period of the subscription `product` that starts at
    /// `start` and lasts the offer's span, else `info`'s period; returns it and the period's end.
    func issuePeriod(customerID: String, originalID: String?, originalPurchaseDate: Date?, product: Product,
                     info: Product.SubscriptionInfo, start: Date, offer: AppliedOffer?, reason: TransactionReason,
                     appAccountToken: String?) throws -> (TransactionRecord, end: Date) {
        let end = timeline.end(of: offer?.spanPeriod ?? info.subscriptionPeriod, from: start)
        let id = nextTransactionID()
        let payload = transactionPayload(
            id: id, originalID: originalID ?? id, product: product, purchaseDate: start,
            originalPurchaseDate: originalPurchaseDate ?? start, expirationDate: end,
            quantity: 1, appAccountToken: appAccountToken, ownership: .purchased, reason: reason, offer: offer)
        return (try issue(payload, productType: product.type, customerID: customerID, sharedFrom: nil, at: start), end)
    }

    /// `SUBSCRIBED` / `INITIAL_BUY`.
    private func startSubscription(_ request: PurchaseRequest, info: Product.SubscriptionInfo) throws -> TransactionRecord {
        let offer = try offerForNewPeriod(request)
        let (record, end) = try issuePeriod(
            customerID: request.customerID, originalID: nil, originalPurchaseDate: nil, product: request.product,
            info: info, start: now, offer: offer, reason: .purchase, appAccountToken: request.appAccountToken)
        var subscription = SubscriptionRecord(
            originalID: record.originalID, customerID: request.customerID,
            groupID: info.subscriptionGroupID, productID: request.product.id,
            latestTransactionID: record.id, purchaseDate: now, expirationDate: end,
            appAccountToken: request.appAccountToken, sharedFrom: nil)
        subscription.pendingOffer = offer?.afterOneSpan
        try announce(.subscribed, .initialBuy, about: &subscription, at: now, transaction: record, startsSharing: true)
        return record
    }

    /// `SUBSCRIBED` / `RESUBSCRIBE`: a new period under the same original transaction id.
    private func resubscribe(_ subscription: inout SubscriptionRecord, _ request: PurchaseRequest,
                             info: Product.SubscriptionInfo) throws -> TransactionRecord {
        let offer = try offerForNewPeriod(request)
        let token = request.appAccountToken ?? subscription.appAccountToken
        let (record, end) = try issuePeriod(
            customerID: request.customerID, originalID: subscription.originalID,
            originalPurchaseDate: subscription.originalPurchaseDate, product: request.product, info: info,
            start: now, offer: offer, reason: .purchase, appAccountToken: token)
        if now.timeIntervalSince(subscription.expirationDate) > StoreTimeline.billingRetryDays * 86_400 {
            subscription.recentStartDate = now
        }
        subscription.beginPeriod(of: request.product.id, transactionID: record.id, until: end,
                                 pendingOffer: offer?.afterOneSpan)
        subscription.autoRenewProductID = request.product.id
        subscription.autoRenew = true
        subscription.appAccountToken = token
        try announce(.subscribed, .resubscribe, about: &subscription, at: now, transaction: record, startsSharing: true)
        return record
    }

    /// A purchase in a group the customer is subscribed to: the same plan (auto-renew back
    /// on, a downgrade cancelled, or an offer for the next renewal), an upgrade or same-period
    /// crossgrade (at once), or a downgrade or other crossgrade (at the next renewal).
    private func changePlan(_ subscription: inout SubscriptionRecord, _ request: PurchaseRequest,
                            info: Product.SubscriptionInfo) throws -> TransactionRecord {
        let product = request.product
        let latest = try requireTransaction(id: subscription.latestTransactionID)
        if product.id == subscription.productID {
            if let offer = request.explicitOffer {
                subscription.autoRenewProductID = product.id
                subscription.autoRenew = true
                subscription.pendingOffer = offer
                try notify(.offerRedeemed, nil, about: &subscription, at: now)
                return latest
            }
            if !subscription.autoRenew {
                subscription.autoRenew = true
                try announce(.didChangeRenewalStatus, .autoRenewEnabled, about: &subscription, at: now)
            }
            if subscription.autoRenewProductID != product.id {
                subscription.autoRenewProductID = product.id
                subscription.pendingOffer = nil
                try announce(.didChangeRenewalPref, nil, about: &subscription, at: now)
            }
            return latest
        }
        let type: NotificationTypeV2 = request.hasExplicitOffer ? .offerRedeemed : .didChangeRenewalPref
        guard takesEffectImmediately(from: subscription.productID, to: info) else {
            subscription.autoRenewProductID = product.id
            subscription.autoRenew = true
            subscription.pendingOffer = request.explicitOffer
            try announce(type, .downgrade, about: &subscription, at: now)
            return latest
        }
        _ = try reissue(latest, at: now) { $0.isUpgraded = true }
        let offer = try offerForNewPeriod(request)
        let token = request.appAccountToken ?? subscription.appAccountToken
        let (record, end) = try issuePeriod(
            customerID: request.customerID, originalID: subscription.originalID,
            originalPurchaseDate: subscription.originalPurchaseDate, product: product, info: info, start: now,
            offer: offer, reason: .purchase, appAccountToken: token)
        subscription.productID = product.id
        subscription.autoRenewProductID = product.id
        subscription.autoRenew = true
        subscription.latestTransactionID = record.id
        subscription.expirationDate = end
        subscription.appAccountToken = token
        subscription.pendingOffer = offer?.afterOneSpan
        try announce(type, .upgrade, about: &subscription, at: now, transaction: record, upgradesPrevious: true,
                     startsSharing: true)
        return record
    }

    /// Whether changing from the product `currentID` to `product` takes effect at once: an
    /// upgrade (a lower group level number), or a crossgrade (the same level) with the same
    /// period. A current product no longer in the catalog is left at once.
    private func takesEffectImmediately(from currentID: String, to next: Product.SubscriptionInfo) -> Bool {
        guard let current = catalog.product(id: currentID)?.subscription else { return true }
        if next.groupLevel != current.groupLevel { return next.groupLevel < current.groupLevel }
        return next.subscriptionPeriod == current.subscriptionPeriod
    }
}
