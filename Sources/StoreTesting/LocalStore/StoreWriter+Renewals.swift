import Foundation
import StoreCore

extension StoreWriter {
    // MARK: - Events as the clock passes

    /// Processes the earliest subscription event due by now — a renewal or a failed renewal
    /// at an expiration date, the end of a grace period, the end of billing retry — and
    /// returns whether there was one. Family members' shared subscriptions follow their
    /// purchaser's.
    func processNextDueEvent() throws -> Bool {
        guard var subscription = try subscriptions(
            """
            WHERE shared_from IS NULL AND (
                (phase = 'subscribed' AND expires_date <= ?1)
                OR (phase = 'inGracePeriod' AND grace_period_expires_date <= ?1)
                OR (phase = 'inBillingRetryPeriod' AND billing_retry_expires_date <= ?1))
            ORDER BY CASE phase
                WHEN 'subscribed' THEN expires_date
                WHEN 'inGracePeriod' THEN grace_period_expires_date
                ELSE billing_retry_expires_date END, original_transaction_id
            LIMIT 1
            """,
            [now.millisecondsSince1970]).first
        else { return false }
        switch (subscription.state, subscription.gracePeriodExpirationDate, subscription.billingRetryExpirationDate) {
        case (.subscribed, _, _):
            let due = subscription.expirationDate
            if !subscription.autoRenew {
                try expire(&subscription, at: due, subtype: .voluntary, intent: .customerCancelled)
            } else if settings.shouldEnterBillingRetryOnRenewal {
                try failRenewal(&subscription, at: due)
            } else {
                try renew(&subscription, at: due, recovering: false)
            }
        case (.inGracePeriod, let graceEnd?, _):
            try endGracePeriod(&subscription, at: graceEnd)
        case (.inBillingRetryPeriod, _, let retryEnd?):
            try expire(&subscription, at: retryEnd, subtype: .billingRetry, intent: .billingError)
        default:
            return false
        }
        return true
    }

    /// `DID_RENEW` (with `BILLING_RECOVERY` after a billing issue): a period of the renewal
    /// product starting at `start`, carrying the pending offer if any. When the catalog no
    /// longer sells the renewal product, the subscription expires instead (`EXPIRED` /
    /// `PRODUCT_NOT_FOR_SALE`).
    func renew(_ subscription: inout SubscriptionRecord, at start: Date, recovering: Bool) throws {
        guard let product = catalog.product(id: subscription.autoRenewProductID), let info = product.subscription else {
            try expire(&subscription, at: start, subtype: .productNotForSale, intent: .productNotAvailable)
            return
        }
        let offer = subscription.pendingOffer
        let productChanged = product.id != subscription.productID
        let (record, end) = try issuePeriod(
            customerID: subscription.customerID, originalID: subscription.originalID,
            originalPurchaseDate: subscription.originalPurchaseDate, product: product, info: info, start: start,
            offer: offer, reason: .renewal, appAccountToken: subscription.appAccountToken)
        subscription.beginPeriod(of: product.id, transactionID: record.id, until: end, pendingOffer: offer?.afterOneSpan)
        let subtype: NotificationSubtype? = recovering ? .billingRecovery : nil
        try announce(.didRenew, subtype, about: &subscription, at: start, transaction: record, startsSharing: productChanged)
    }

    /// `DID_FAIL_TO_RENEW` (with `GRACE_PERIOD` when the grace period applies): billing retry
    /// begins at `failure`.
    func failRenewal(_ subscription: inout SubscriptionRecord, at failure: Date) throws {
        let period = (catalog.product(id: subscription.autoRenewProductID) ?? catalog.product(id: subscription.productID))?
            .subscription?.subscriptionPeriod
        subscription.billingRetryExpirationDate = timeline.billingRetryEnd(after: failure)
        subscription.expirationIntent = .billingError
        let subtype: NotificationSubtype?
        if settings.billingGracePeriodIsEnabled {
            subscription.state = .inGracePeriod
            subscription.gracePeriodExpirationDate = timeline.gracePeriodEnd(after: failure, period: period)
            subtype = .gracePeriod
        } else {
            subscription.state = .inBillingRetryPeriod
            subtype = nil
        }
        try announce(.didFailToRenew, subtype, about: &subscription, at: failure)
    }

    /// `GRACE_PERIOD_EXPIRED`: service stops; billing retry goes on.
    func endGracePeriod(_ subscription: inout SubscriptionRecord, at end: Date) throws {
        subscription.state = .inBillingRetryPeriod
        subscription.gracePeriodExpirationDate = nil
        try announce(.gracePeriodExpired, nil, about: &subscription, at: end)
    }

    /// `EXPIRED` with `subtype`.
    func expire(_ subscription: inout SubscriptionRecord, at end: Date, subtype: NotificationSubtype,
                intent: ExpirationIntent) throws {
        subscription.state = .expired
        subscription.gracePeriodExpirationDate = nil
        subscription.billingRetryExpirationDate = nil
        subscription.expirationIntent = intent
        subscription.pendingOffer = nil
        try announce(.expired, subtype, about: &subscription, at: end)
    }

    // MARK: - What the tester or the customer does

    /// StoreKit Testing's `forceRenewalOfSubscription`: the next period starts now (or the
    /// renewal fails now, when renewals fail with billing issues).
    func forceRenewal(customerID: String, groupID: String) throws {
        var subscription = try requireOwnSubscription(customerID: customerID, groupID: groupID)
        guard subscription.state == .subscribed else {
            throw LocalStoreError.subscriptionNotActive(customerID: customerID, groupID: groupID, state: subscription.state)
        }
        guard subscription.autoRenew else { throw LocalStoreError.autoRenewIsOff(customerID: customerID, groupID: groupID) }
        if settings.shouldEnterBillingRetryOnRenewal {
            try failRenewal(&subscription, at: now)
        } else {
            try renew(&subscription, at: now, recovering: false)
        }
    }

    /// StoreKit Testing's `expireSubscription`: the subscription ends now (`EXPIRED` /
    /// `VOLUNTARY`). The latest transactions of the subscription and of the family members'
    /// shared copies are signed again with the new expiration date, and the notifications
    /// carry them.
    func expireNow(customerID: String, groupID: String) throws {
        var subscription = try requireOwnSubscription(customerID: customerID, groupID: groupID)
        guard subscription.isLive else {
            throw LocalStoreError.subscriptionNotActive(customerID: customerID, groupID: groupID, state: subscription.state)
        }
        let copies = try subscriptions("WHERE shared_from = ?", [subscription.originalID]).filter(\.isLive)
        for latestID in [subscription.latestTransactionID] + copies.map(\.latestTransactionID) {
            let latest = try requireTransaction(id: latestID)
            if let expiration = latest.expirationDate, expiration > now {
                _ = try reissue(latest, at: now) { $0.expiresDate = self.now }
            }
        }
        subscription.expirationDate = min(subscription.expirationDate, now)
        subscription.autoRenew = false
        try expire(&subscription, at: now, subtype: .voluntary, intent: .customerCancelled)
    }

    /// StoreKit Testing's `resolveIssueForTransaction`: billing succeeds. In the grace period
    /// the new period starts when the failed one would have; in billing retry it starts now.
    func resolveBillingIssue(customerID: String, groupID: String) throws {
        var subscription = try requireOwnSubscription(customerID: customerID, groupID: groupID)
        switch subscription.state {
        case .inGracePeriod:
            try renew(&subscription, at: subscription.expirationDate, recovering: true)
        case .inBillingRetryPeriod:
            try renew(&subscription, at: now, recovering: true)
        case .subscribed, .expired, .revoked:
            throw LocalStoreError.noBillingIssue(customerID: customerID, groupID: groupID)
        }
    }

    /// `DID_CHANGE_RENEWAL_STATUS`. Turning renewal off during a billing issue also ends the
    /// subscription (`EXPIRED` / `VOLUNTARY`). Setting the state it already has changes nothing.
    func setAutoRenew(_ enabled: Bool, customerID: String, groupID: String) throws {
        var subscription = try requireOwnSubscription(customerID: customerID, groupID: groupID)
        guard subscription.isLive else {
            throw LocalStoreError.subscriptionNotActive(customerID: customerID, groupID: groupID, state: subscription.state)
        }
        guard subscription.autoRenew != enabled else { return }
        subscription.autoRenew = enabled
        let subtype: NotificationSubtype = enabled ? .autoRenewEnabled : .autoRenewDisabled
        try announce(.didChangeRenewalStatus, subtype, about: &subscription, at: now)
        if !enabled, subscription.state != .subscribed {
            try expire(&subscription, at: now, subtype: .voluntary, intent: .customerCancelled)
        }
    }
}
