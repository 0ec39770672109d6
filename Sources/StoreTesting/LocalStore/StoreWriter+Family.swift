import Foundation
import StoreCore

/// Family Sharing, simply: customers join a family by id; a member gets a `FAMILY_SHARED`
/// copy of every family-shareable non-consumable and auto-renewable subscription the others
/// bought — its own transaction (and, for a subscription, its own original transaction id)
/// that follows the purchaser's: it renews, fails, expires and changes plan with it, and is
/// revoked (`REVOKE`) when the purchaser is refunded, stops sharing, changes to a product
/// that is not shareable, or when either leaves the family.
extension StoreWriter {
    /// The family the customer belongs to.
    func familyID(of customerID: String) throws -> String? {
        try connection.fetchValue(String.self, "SELECT family_id FROM local_store_family_member WHERE customer_id = ?",
                                  [customerID])
    }

    /// The other members of the customer's family, oldest member first.
    func familyMembers(sharingWith customerID: String) throws -> [String] {
        guard let familyID = try familyID(of: customerID) else { return [] }
        return try connection.fetchAll(
            """
            SELECT customer_id FROM local_store_family_member WHERE family_id = ? AND customer_id <> ?
            ORDER BY joined_date, customer_id
            """,
            [familyID, customerID]
        ).map { try $0.decode(String.self, at: 0) }
    }

    /// Adds the customer to a family and shares purchases both ways.
    func joinFamily(customerID: String, familyID: String) throws {
        guard !customerID.isEmpty else { throw LocalStoreError.emptyCustomerID }
        guard !familyID.isEmpty else { throw LocalStoreError.emptyFamilyID }
        if let current = try self.familyID(of: customerID) {
            throw LocalStoreError.alreadyInFamily(customerID: customerID, familyID: current)
        }
        try connection.execute(
            "INSERT INTO local_store_family_member (customer_id, family_id, joined_date) VALUES (?, ?, ?)",
            [customerID, familyID, now.millisecondsSince1970])
        let others = try familyMembers(sharingWith: customerID)
        for member in others {
            try shareEverything(of: member, with: [customerID])
        }
        try shareEverything(of: customerID, with: others)
    }

    /// Takes the customer out of their family, revoking what was shared both ways.
    func leaveFamily(customerID: String) throws {
        guard try familyID(of: customerID) != nil else { throw LocalStoreError.notInFamily(customerID: customerID) }
        let others = try familyMembers(sharingWith: customerID)
        try revokeCopies(heldBy: customerID, from: others)
        for member in others {
            try revokeCopies(heldBy: member, from: [customerID])
        }
        try connection.execute("DELETE FROM local_store_family_member WHERE customer_id = ?", [customerID])
    }

    /// Ends Family Sharing of a purchase: for a member's copy, that member's access; for a
    /// purchaser's transaction, every member's.
    func revokeFamilySharing(transactionID: String) throws {
        let record = try requireTransaction(id: transactionID)
        guard record.revocationDate == nil else { throw LocalStoreError.alreadyRevoked(transactionID: transactionID) }
        if record.sharedFrom != nil {
            if record.productType == .autoRenewable {
                guard var copy = try subscription(originalID: record.originalID), copy.isLive else {
                    throw LocalStoreError.alreadyRevoked(transactionID: transactionID)
                }
                try revoke(&copy)
            } else {
                try revokeCopy(record)
            }
            return
        }
        let revoked: Int
        if record.productType == .autoRenewable {
            let copies = try subscriptions("WHERE shared_from = ?", [record.originalID]).filter(\.isLive)
            for var copy in copies { try revoke(&copy) }
            revoked = copies.count
        } else {
            let copies = try transactions("WHERE shared_from = ? AND revocation_date IS NULL", [record.id])
            for copy in copies { try revokeCopy(copy) }
            revoked = copies.count
        }
        guard revoked > 0 else { throw LocalStoreError.notFamilyShared(transactionID: transactionID) }
    }

    // MARK: - Sharing

    private func shareEverything(of purchaserID: String, with members: [String]) throws {
        guard !members.isEmpty else { return }
        let owned = try transactions(
            "WHERE customer_id = ? AND product_type = ? AND shared_from IS NULL AND revocation_date IS NULL ORDER BY purchase_date, transaction_id",
            [purchaserID, ProductType.nonConsumable.rawValue])
        for record in owned where catalog.product(id: record.productID)?.isFamilyShareable == true {
            for member in members { try shareOneTimePurchase(record, with: member) }
        }
        let subscriptions = try subscriptions(
            "WHERE customer_id = ? AND shared_from IS NULL AND phase IN ('subscribed', 'inGracePeriod') ORDER BY original_transaction_id",
            [purchaserID])
        for subscription in subscriptions where catalog.product(id: subscription.productID)?.isFamilyShareable == true {
            for member in members { try shareSubscription(subscription, with: member, at: now) }
        }
    }

    /// Gives `member` a copy of a non-consumable (`ONE_TIME_CHARGE`), unless they hold one.
    func shareOneTimePurchase(_ record: TransactionRecord, with member: String) throws {
        let held = try transactions("WHERE customer_id = ? AND shared_from = ? AND revocation_date IS NULL LIMIT 1",
                                    [member, record.id])
        guard held.isEmpty else { return }
        let copy = try issueCopy(of: record, for: member, originalID: nil, originalPurchaseDate: record.purchaseDate,
                                 at: now)
        try notify(.oneTimeCharge, nil, customerID: member, at: now, transaction: copy, renewalInfoJWS: nil, status: nil)
    }

    /// Gives `member` a copy of the purchaser's subscription: `SUBSCRIBED` / `INITIAL_BUY`
    /// the first time, `RESUBSCRIBE` after an earlier copy ended.
    private func shareSubscription(_ source: SubscriptionRecord, with member: String, at event: Date) throws {
        let previous = try subscriptions("WHERE customer_id = ? AND shared_from = ?", [member, source.originalID]).first
        let sourceTransaction = try requireTransaction(id: source.latestTransactionID)
        let record = try issueCopy(
            of: sourceTransaction, for: member, originalID: previous?.originalID,
            originalPurchaseDate: previous?.originalPurchaseDate ?? sourceTransaction.purchaseDate, at: event)
        var copy = previous ?? SubscriptionRecord(
            originalID: record.originalID, customerID: member, groupID: source.groupID, productID: source.productID,
            latestTransactionID: record.id, purchaseDate: record.purchaseDate, expirationDate: source.expirationDate,
            appAccountToken: nil, sharedFrom: source.originalID)
        if let previous, event.timeIntervalSince(previous.expirationDate) > StoreTimeline.billingRetryDays * 86_400 {
            copy.recentStartDate = event
        }
        copy.latestTransactionID = record.id
        mirror(source, onto: &copy)
        try notify(.subscribed, previous == nil ? .initialBuy : .resubscribe, about: &copy, at: event, transaction: record)
    }

    /// A family member's copy of the purchaser's transaction `source`: its own transaction
    /// id, `FAMILY_SHARED`, without the purchaser's offer or app account token.
    private func issueCopy(of source: TransactionRecord, for member: String, originalID: String?,
                           originalPurchaseDate: Date, at event: Date) throws -> TransactionRecord {
        var payload = try source.payload()
        let id = nextTransactionID()
        payload.transactionId = id
        payload.originalTransactionId = originalID ?? id
        payload.originalPurchaseDate = originalPurchaseDate
        payload.webOrderLineItemId = source.productType == .autoRenewable ? nextWebOrderLineItemID() : nil
        payload.inAppOwnershipType = .familyShared
        payload.appAccountToken = nil
        payload.isUpgraded = nil
        payload.revocationDate = nil
        payload.revocationReason = nil
        payload.revocationType = nil
        payload.offerType = nil
        payload.offerIdentifier = nil
        payload.offerDiscountType = nil
        payload.offerPeriod = nil
        return try issue(payload, productType: source.productType, customerID: member, sharedFrom: source.id, at: event)
    }

    /// Copies the purchaser's subscription state onto a member's copy.
    private func mirror(_ source: SubscriptionRecord, onto copy: inout SubscriptionRecord) {
        copy.productID = source.productID
        copy.autoRenewProductID = source.autoRenewProductID
        copy.autoRenew = source.autoRenew
        copy.state = source.state
        copy.expirationDate = source.expirationDate
        copy.gracePeriodExpirationDate = source.gracePeriodExpirationDate
        copy.billingRetryExpirationDate = source.billingRetryExpirationDate
        copy.expirationIntent = source.expirationIntent
    }

    /// Announces an event of `subscription`: notifies its customer (with the subscription's
    /// latest transaction when `transaction` is nil), then passes the event on to the family
    /// members' copies (``propagate(_:transaction:upgradesPrevious:type:subtype:at:startsSharing:)``).
    func announce(_ type: NotificationTypeV2, _ subtype: NotificationSubtype?, about subscription: inout SubscriptionRecord,
                  at event: Date, transaction: TransactionRecord? = nil, upgradesPrevious: Bool = false,
                  startsSharing: Bool = false) throws {
        try notify(type, subtype, about: &subscription, at: event, transaction: transaction)
        try propagate(subscription, transaction: transaction, upgradesPrevious: upgradesPrevious, type: type,
                      subtype: subtype, at: event, startsSharing: startsSharing)
    }

    /// Passes an event of a purchaser's subscription on to the family members' copies: each
    /// live copy takes the purchaser's state and gets the same notification, with a copy of
    /// `transaction` when the event made one. When the product is not family-shareable, live
    /// copies are revoked instead. With `startsSharing` (a purchase, or a renewal into another
    /// product), members without a live copy get one.
    func propagate(_ source: SubscriptionRecord, transaction: TransactionRecord?, upgradesPrevious: Bool = false,
                   type: NotificationTypeV2, subtype: NotificationSubtype?, at event: Date,
                   startsSharing: Bool = false) throws {
        guard source.sharedFrom == nil else { return }
        let shareable = catalog.product(id: source.productID)?.isFamilyShareable == true
        for member in try familyMembers(sharingWith: source.customerID) {
            let existing = try subscriptions("WHERE customer_id = ? AND shared_from = ?", [member, source.originalID]).first
            guard var copy = existing, copy.isLive else {
                if shareable, startsSharing, source.state == .subscribed {
                    try shareSubscription(source, with: member, at: event)
                }
                continue
            }
            guard shareable else {
                try revoke(&copy)
                continue
            }
            var copiedTransaction: TransactionRecord?
            if let transaction {
                if upgradesPrevious {
                    _ = try reissue(try requireTransaction(id: copy.latestTransactionID), at: event) { $0.isUpgraded = true }
                }
                let record = try issueCopy(of: transaction, for: member, originalID: copy.originalID,
                                           originalPurchaseDate: copy.originalPurchaseDate, at: event)
                copy.latestTransactionID = record.id
                copiedTransaction = record
            }
            mirror(source, onto: &copy)
            try notify(type, subtype, about: &copy, at: event, transaction: copiedTransaction)
        }
    }

    // MARK: - Revoking

    /// `REVOKE` for a member's shared subscription: its latest transaction is signed again
    /// with a revocation date.
    func revoke(_ copy: inout SubscriptionRecord) throws {
        let latest = try requireTransaction(id: copy.latestTransactionID)
        let revoked = latest.revocationDate == nil ? try reissue(latest, at: now) { payload in
            payload.revocationDate = self.now
            payload.revocationReason = .refundedForOtherReason
            payload.revocationType = .familyRevoke
        } : latest
        copy.state = .revoked
        copy.autoRenew = false
        copy.gracePeriodExpirationDate = nil
        copy.billingRetryExpirationDate = nil
        try notify(.revoke, nil, about: &copy, at: now, transaction: revoked)
    }

    /// `REVOKE` for a member's copy of a non-consumable.
    func revokeCopy(_ record: TransactionRecord) throws {
        let revoked = try reissue(record, at: now) { payload in
            payload.revocationDate = self.now
            payload.revocationReason = .refundedForOtherReason
            payload.revocationType = .familyRevoke
        }
        try notify(.revoke, nil, customerID: record.customerID, at: now, transaction: revoked, renewalInfoJWS: nil,
                   status: nil)
    }

    /// Revokes every live copy `holder` has of purchases made by `purchasers`.
    private func revokeCopies(heldBy holder: String, from purchasers: [String]) throws {
        guard !purchasers.isEmpty else { return }
        let marks = Array(repeating: "?", count: purchasers.count).joined(separator: ", ")
        for var copy in try subscriptions(
            """
            WHERE customer_id = ? AND shared_from IN (
                SELECT original_transaction_id FROM local_store_subscription WHERE customer_id IN (\(marks)))
            ORDER BY original_transaction_id
            """,
            [holder] + purchasers) where copy.isLive {
            try revoke(&copy)
        }
        for copy in try transactions(
            """
            WHERE customer_id = ? AND product_type = ? AND revocation_date IS NULL AND shared_from IN (
                SELECT transaction_id FROM local_store_transaction WHERE customer_id IN (\(marks)))
            ORDER BY purchase_date, transaction_id
            """,
            [holder, ProductType.nonConsumable.rawValue] + purchasers) {
            try revokeCopy(copy)
        }
    }
}
