import Foundation

extension StoreWriter {
    /// Makes a purchase and returns the transaction to hand back to the app.
    ///
    /// A non-consumable the customer owns is not bought again: its transaction comes back.
    func purchase(_ request: PurchaseRequest) throws -> TransactionRecord {
        switch request.product.type {
        case .consumable:
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
        case .autoRenewable:
            return try subscribe(request)
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
    private func subscribe(_ request: PurchaseRequest) throws -> TransactionRecord {
        let product = request.product
        let groupID = product.subscription!.subscriptionGroupID
        let existing = try ownSubscription(customerID: request.customerID, groupID: groupID)
        if let codeOffer = request.codeOffer {
            try checkEligibility(for: codeOffer.offer, code: codeOffer.code, productID: product.id, existing: existing)
        }
        guard var subscription = existing else {
            return try startSubscription(request)
        }
        switch subscription.state {
        case .inGracePeriod, .inBillingRetryPeriod:
            throw LocalStoreError.subscriptionHasBillingIssue(customerID: request.customerID, groupID: groupID)
        case .expired, .revoked:
            return try resubscribe(&subscription, request)
        case .subscribed:
            return try changePlan(&subscription, request)
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
    /// introductory offer when the customer never had one in the group.
    private func offerForNewPeriod(_ request: PurchaseRequest) throws -> AppliedOffer? {
        if let explicit = request.explicitOffer { return explicit }
        guard let info = request.product.subscription, let intro = info.introductoryOffer,
              try isEligibleForIntroductoryOffer(customerID: request.customerID, groupID: info.subscriptionGroupID)
        else { return nil }
        return AppliedOffer(intro, type: .introductoryOffer, identifier: nil)
    }

    /// Whether the customer never received an introductory offer in the group: StoreKit's
    /// rule of one introductory offer per customer per subscription group.
    func isEligibleForIntroductoryOffer(customerID: String, groupID: String) throws -> Bool {
        try connection.fetchOne(
            """
            SELECT 1 FROM local_store_transaction
            WHERE customer_id = ? AND group_id = ? AND offer_type = ? AND shared_from IS NULL LIMIT 1
            """,
            [customerID, groupID, OfferType.introductoryOffer.rawValue]) == nil
    }

    /// Issues the transaction of a period of `product` that starts at `start`.
    func issuePeriod(customerID: String, originalID: String?, originalPurchaseDate: Date?, product: Product,
                     start: Date, offer: AppliedOffer?, reason: TransactionReason,
                     appAccountToken: String?) throws -> TransactionRecord {
        let period = offer?.spanPeriod ?? product.subscription!.subscriptionPeriod
        let id = nextTransactionID()
        let payload = transactionPayload(
            id: id, originalID: originalID ?? id, product: product, purchaseDate: start,
            originalPurchaseDate: originalPurchaseDate ?? start, expirationDate: timeline.end(of: period, from: start),
            quantity: 1, appAccountToken: appAccountToken, ownership: .purchased, reason: reason, offer: offer)
        return try issue(payload, productType: product.type, customerID: customerID, sharedFrom: nil, at: start)
    }

    /// `SUBSCRIBED` / `INITIAL_BUY`.
    private func startSubscription(_ request: PurchaseRequest) throws -> TransactionRecord {
        let offer = try offerForNewPeriod(request)
        let record = try issuePeriod(
            customerID: request.customerID, originalID: nil, originalPurchaseDate: nil, product: request.product,
            start: now, offer: offer, reason: .purchase, appAccountToken: request.appAccountToken)
        var subscription = SubscriptionRecord(
            originalID: record.originalID, customerID: request.customerID,
            groupID: request.product.subscription!.subscriptionGroupID, productID: request.product.id,
            latestTransactionID: record.id, purchaseDate: now, expirationDate: record.expirationDate!,
            appAccountToken: request.appAccountToken, sharedFrom: nil)
        subscription.pendingOffer = offer?.afterOneSpan
        try notify(.subscribed, .initialBuy, about: &subscription, at: now, transaction: record)
        try propagate(subscription, transaction: record, type: .subscribed, subtype: .initialBuy, at: now,
                      startsSharing: true)
        return record
    }

    /// `SUBSCRIBED` / `RESUBSCRIBE`: a new period under the same original transaction id.
    private func resubscribe(_ subscription: inout SubscriptionRecord, _ request: PurchaseRequest) throws -> TransactionRecord {
        let offer = try offerForNewPeriod(request)
        let token = request.appAccountToken ?? subscription.appAccountToken
        let record = try issuePeriod(
            customerID: request.customerID, originalID: subscription.originalID,
            originalPurchaseDate: subscription.originalPurchaseDate, product: request.product, start: now,
            offer: offer, reason: .purchase, appAccountToken: token)
        if now.timeIntervalSince(subscription.expirationDate) > StoreTimeline.billingRetryDays * 86_400 {
            subscription.recentStartDate = now
        }
        subscription.productID = request.product.id
        subscription.autoRenewProductID = request.product.id
        subscription.autoRenew = true
        subscription.state = .subscribed
        subscription.latestTransactionID = record.id
        subscription.expirationDate = record.expirationDate!
        subscription.gracePeriodExpirationDate = nil
        subscription.billingRetryExpirationDate = nil
        subscription.expirationIntent = nil
        subscription.appAccountToken = token
        subscription.pendingOffer = offer?.afterOneSpan
        try notify(.subscribed, .resubscribe, about: &subscription, at: now, transaction: record)
        try propagate(subscription, transaction: record, type: .subscribed, subtype: .resubscribe, at: now,
                      startsSharing: true)
        return record
    }

    /// A purchase in a group the customer is subscribed to: the same plan (auto-renew back
    /// on, a downgrade cancelled, or an offer for the next renewal), an upgrade or same-period
    /// crossgrade (at once), or a downgrade or other crossgrade (at the next renewal).
    private func changePlan(_ subscription: inout SubscriptionRecord, _ request: PurchaseRequest) throws -> TransactionRecord {
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
                try notify(.didChangeRenewalStatus, .autoRenewEnabled, about: &subscription, at: now)
                try propagate(subscription, transaction: nil, type: .didChangeRenewalStatus, subtype: .autoRenewEnabled,
                              at: now)
            }
            if subscription.autoRenewProductID != product.id {
                subscription.autoRenewProductID = product.id
                subscription.pendingOffer = nil
                try notify(.didChangeRenewalPref, nil, about: &subscription, at: now)
                try propagate(subscription, transaction: nil, type: .didChangeRenewalPref, subtype: nil, at: now)
            }
            return latest
        }
        let type: NotificationTypeV2 = request.hasExplicitOffer ? .offerRedeemed : .didChangeRenewalPref
        guard takesEffectImmediately(from: subscription.productID, to: product) else {
            subscription.autoRenewProductID = product.id
            subscription.autoRenew = true
            subscription.pendingOffer = request.explicitOffer
            try notify(type, .downgrade, about: &subscription, at: now)
            try propagate(subscription, transaction: nil, type: type, subtype: .downgrade, at: now)
            return latest
        }
        _ = try reissue(latest, at: now) { $0.isUpgraded = true }
        let offer = try offerForNewPeriod(request)
        let token = request.appAccountToken ?? subscription.appAccountToken
        let record = try issuePeriod(
            customerID: request.customerID, originalID: subscription.originalID,
            originalPurchaseDate: subscription.originalPurchaseDate, product: product, start: now, offer: offer,
            reason: .purchase, appAccountToken: token)
        subscription.productID = product.id
        subscription.autoRenewProductID = product.id
        subscription.autoRenew = true
        subscription.latestTransactionID = record.id
        subscription.expirationDate = record.expirationDate!
        subscription.appAccountToken = token
        subscription.pendingOffer = offer?.afterOneSpan
        try notify(type, .upgrade, about: &subscription, at: now, transaction: record)
        try propagate(subscription, transaction: record, upgradesPrevious: true, type: type, subtype: .upgrade,
                      at: now, startsSharing: true)
        return record
    }

    /// Whether changing from the product `currentID` to `product` takes effect at once: an
    /// upgrade (a lower group level number), or a crossgrade (the same level) with the same
    /// period. A current product no longer in the catalog is left at once.
    private func takesEffectImmediately(from currentID: String, to product: Product) -> Bool {
        guard let current = catalog.product(id: currentID)?.subscription, let next = product.subscription else {
            return true
        }
        if next.groupLevel != current.groupLevel { return next.groupLevel < current.groupLevel }
        return next.subscriptionPeriod == current.subscriptionPeriod
    }
}
