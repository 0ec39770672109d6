import Foundation
import StoreCore

extension LocalStore {
    // MARK: - Purchases

    /// Buys a product for a customer, as StoreKit's `Product.purchase(options:)` does.
    ///
    /// A consumable makes a transaction for `quantity`; a non-consumable the customer owns
    /// comes back unchanged; a non-renewing subscription lasts
    /// ``Configuration/nonRenewingSubscriptionDuration``. An auto-renewable subscription
    /// starts (`SUBSCRIBED` / `INITIAL_BUY`, with the introductory offer when the customer
    /// never subscribed in the group; see ``isEligibleForIntroductoryOffer(customerID:groupID:)``),
    /// resubscribes (`RESUBSCRIBE`), or changes plan: an upgrade, or a crossgrade to the same period, at once (the previous transaction is marked
    /// `isUpgraded`); a downgrade, or a crossgrade to another period, at the next renewal
    /// (`DID_CHANGE_RENEWAL_PREF` / `DOWNGRADE`). A promotional offer or offer code for an
    /// active subscription sends `OFFER_REDEEMED`.
    ///
    /// - Returns: ``PurchaseResult/success(_:)`` with the verified transaction, already
    ///   ingested into the ledger; ``PurchaseResult/pending(_:)`` when Ask to Buy applies;
    ///   ``PurchaseResult/userCancelled`` when asked to simulate it.
    /// - Throws: ``LocalStoreError`` for a bad product, option or offer, a purchase the
    ///   customer's state does not allow, or ``LocalStoreError/simulatedFailure(_:)`` while the
    ///   settings simulate a Purchase failure (or, redeeming an offer code, an Offer Code
    ///   Redeem Sheet failure); nothing changes then.
    public func purchase(_ productID: String, customer customerID: String,
                         options: Set<PurchaseOption> = []) throws -> PurchaseResult {
        try serially {
            let request = try PurchaseRequest(productID: productID, customerID: customerID, options: options,
                                              catalog: catalog)
            let failures = try settings().simulatedFailures
            if failures.contains(.purchase) { throw LocalStoreError.simulatedFailure(.purchase) }
            if request.codeOffer != nil, failures.contains(.offerCodeRedeemSheet) {
                throw LocalStoreError.simulatedFailure(.offerCodeRedeemSheet)
            }
            if request.simulatesUserCancellation { return .userCancelled }
            _ = try catchUp()
            let (result, _) = try perform { writer -> Either in
                if request.simulatesAskToBuy ?? writer.settings.askToBuyEnabled {
                    return .pending(try writer.requestApproval(productID: productID, customerID: customerID,
                                                               options: options))
                }
                return .purchased(try writer.purchase(request).jws)
            }
            switch result {
            case .pending(let askToBuy):
                return .pending(askToBuy)
            case .purchased(let jws):
                return .success(try verifiedTransaction(jws))
            }
        }
    }

    /// What a purchase made inside the write.
    private enum Either {
        case pending(AskToBuyRequest)
        case purchased(String)
    }

    /// Approves a pending Ask to Buy request: the purchase goes through now, with the options
    /// it was asked with, and reaches the app through ``updates()``.
    ///
    /// - Throws: ``LocalStoreError/unknownAskToBuyRequest(_:)``,
    ///   ``LocalStoreError/askToBuyRequestAlreadyDecided(id:state:)``, or why the purchase is
    ///   refused now; the request then stays pending.
    public func approveAskToBuy(_ requestID: String) throws -> VerifiedTransaction {
        try serially {
            _ = try catchUp()
            let (jws, _) = try perform { writer -> String in
                let (_, purchase) = try writer.pendingPurchase(ofRequest: requestID)
                let record = try writer.purchase(purchase)
                try writer.decide(request: requestID, approved: true, transactionID: record.id)
                return record.jws
            }
            return try verifiedTransaction(jws)
        }
    }

    /// Declines a pending Ask to Buy request: no transaction is made.
    public func declineAskToBuy(_ requestID: String) throws -> AskToBuyRequest {
        try serially {
            let (request, _) = try perform { writer -> AskToBuyRequest in
                _ = try writer.pendingPurchase(ofRequest: requestID)
                try writer.decide(request: requestID, approved: false, transactionID: nil)
                return try writer.requireAskToBuyRequest(id: requestID)
            }
            return request
        }
    }

    // MARK: - Time

    /// Moves the store's clock forward by `duration` of store time (see ``TimeRate``) and
    /// processes what it passed: renewals, failed renewals, grace periods and billing retry
    /// ending, expirations.
    ///
    /// - Returns: the notifications sent on the way.
    @discardableResult
    public func advance(by duration: StoreDuration) throws -> [StoreNotification] {
        let components = [duration.years, duration.months, duration.weeks, duration.days, duration.hours,
                          duration.minutes, duration.seconds]
        guard components.allSatisfy({ $0 >= 0 }) else { throw LocalStoreError.negativeDuration(duration) }
        return try serially {
            var sent = try catchUp()
            _ = try perform { $0.moveClock(to: $0.timeline.date(after: duration, from: $0.now)) }
            sent += try catchUp()
            return sent
        }
    }

    /// Processes what the clock passed since the last operation (every operation does this
    /// first), and makes the deliveries still owed.
    ///
    /// - Returns: the notifications sent.
    @discardableResult
    public func update() throws -> [StoreNotification] {
        try serially { try catchUp() }
    }

    // MARK: - Subscriptions

    /// Renews the customer's subscription in the group now, as StoreKit Testing's
    /// `forceRenewalOfSubscription` does (`DID_RENEW`); when renewals fail with billing
    /// issues, the renewal fails now instead (`DID_FAIL_TO_RENEW`).
    @discardableResult
    public func forceRenewal(customer customerID: String, groupID: String) throws -> [StoreNotification] {
        try operation { try $0.forceRenewal(customerID: customerID, groupID: groupID) }
    }

    /// Ends the customer's subscription in the group now, as StoreKit Testing's
    /// `expireSubscription` does (`EXPIRED` / `VOLUNTARY`).
    @discardableResult
    public func expireSubscription(customer customerID: String, groupID: String) throws -> [StoreNotification] {
        try operation { try $0.expireNow(customerID: customerID, groupID: groupID) }
    }

    /// Turns automatic renewal of the customer's subscription in the group on or off
    /// (`DID_CHANGE_RENEWAL_STATUS` / `AUTO_RENEW_ENABLED` or `AUTO_RENEW_DISABLED`); setting
    /// the state it has sends nothing.
    @discardableResult
    public func setAutoRenew(_ enabled: Bool, customer customerID: String, groupID: String) throws -> [StoreNotification] {
        try operation { try $0.setAutoRenew(enabled, customerID: customerID, groupID: groupID) }
    }

    /// Resolves the billing issue of the customer's subscription in the group, as StoreKit
    /// Testing's `resolveIssueForTransaction` does: it renews (`DID_RENEW` /
    /// `BILLING_RECOVERY`).
    @discardableResult
    public func resolveBillingIssue(customer customerID: String, groupID: String) throws -> [StoreNotification] {
        try operation { try $0.resolveBillingIssue(customerID: customerID, groupID: groupID) }
    }

    // MARK: - Refunds and Family Sharing

    /// Refunds a purchaser's transaction (`REFUND`) with `reason`; see
    /// ``RevocationReason``. Family members' copies of it are revoked (`REVOKE`).
    @discardableResult
    public func refund(transactionID: String, reason: RevocationReason = .refundedForOtherReason) throws -> [StoreNotification] {
        try operation { try $0.refund(transactionID: transactionID, reason: reason) }
    }

    /// The customer asks the App Store for a refund of a purchase: `CONSUMPTION_REQUEST`, with
    /// their reason, asks the developer's server for consumption information (which the store's
    /// API records, ``consumptionRecords(transactionID:)``); ``refund(transactionID:reason:)``
    /// approves the request, ``declineRefund(transactionID:)`` declines it.
    @discardableResult
    public func requestRefund(transactionID: String, reason: ConsumptionRequestReason = .unsatisfiedWithPurchase) throws -> [StoreNotification] {
        try operation { try $0.requestRefund(transactionID: transactionID, reason: reason) }
    }

    /// The App Store declines the customer's refund request (`REFUND_DECLINED`).
    @discardableResult
    public func declineRefund(transactionID: String) throws -> [StoreNotification] {
        try operation { try $0.declineRefund(transactionID: transactionID) }
    }

    /// Ends Family Sharing of a purchase (`REVOKE`): given a member's shared transaction,
    /// that member's access; given the purchaser's transaction, every member's.
    @discardableResult
    public func revokeFamilySharing(transactionID: String) throws -> [StoreNotification] {
        try operation { try $0.revokeFamilySharing(transactionID: transactionID) }
    }

    /// Adds the customer to the family `familyID`: they get copies of the family's shareable
    /// purchases, and the family gets copies of theirs.
    @discardableResult
    public func joinFamily(customer customerID: String, familyID: String) throws -> [StoreNotification] {
        try operation { try $0.joinFamily(customerID: customerID, familyID: familyID) }
    }

    /// Takes the customer out of their family; what was shared both ways is revoked.
    @discardableResult
    public func leaveFamily(customer customerID: String) throws -> [StoreNotification] {
        try operation { try $0.leaveFamily(customerID: customerID) }
    }

    // MARK: - Settings

    /// Overrides settings of the catalog, as setting `SKTestSession` properties does; the
    /// overrides persist until ``resetSettings()``.
    public func updateSettings(_ change: (inout LocalStoreSettings) -> Void) throws {
        try serially {
            try state.write { connection in
                var settings = try StoreWriter.loadSettings(connection, catalog: catalog)
                change(&settings)
                try StoreWriter.saveSettings(settings, in: connection)
            }
            try refreshWinBackEligibility()
        }
    }

    /// Returns to the catalog's settings, as `SKTestSession.resetToDefaultState()` does.
    public func resetSettings() throws {
        try serially {
            try state.write { try $0.execute("DELETE FROM local_store_setting") }
            try refreshWinBackEligibility()
        }
    }

    /// Catches up, then runs a store operation and returns the notifications it sent.
    private func operation(_ body: (StoreWriter) throws -> Void) throws -> [StoreNotification] {
        try serially {
            _ = try catchUp()
            return try perform(body).1
        }
    }

    /// Signs again the renewal info whose eligible win-back offers the new settings changed,
    /// in a write of its own that runs with them.
    private func refreshWinBackEligibility() throws {
        guard catalog.hasWinBackOffers else { return }
        _ = try perform { try $0.refreshWinBackEligibility() }
    }
}
