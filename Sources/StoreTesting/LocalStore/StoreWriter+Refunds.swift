import Foundation
import StoreCore

extension StoreWriter {
    /// `REFUND`: the App Store refunds a purchaser's transaction. It is signed again with a
    /// revocation date and `reason`; a refunded consumable's grants are reversed by the ledger.
    /// Refunding a subscription's latest transaction revokes the subscription; family members'
    /// copies of what was refunded are revoked (`REVOKE`).
    func refund(transactionID: String, reason: RevocationReason) throws {
        let record = try requireTransaction(id: transactionID)
        guard record.sharedFrom == nil else { throw LocalStoreError.familySharedTransaction(transactionID: transactionID) }
        guard record.revocationDate == nil else { throw LocalStoreError.alreadyRevoked(transactionID: transactionID) }
        try decideRefundRequest(transactionID: transactionID, as: "approved")
        let refunded = try reissue(record, at: now) { payload in
            payload.revocationDate = self.now
            payload.revocationReason = reason
            payload.revocationType = .refundFull
        }
        guard record.productType == .autoRenewable, var subscription = try subscription(originalID: record.originalID) else {
            try notify(.refund, nil, customerID: record.customerID, at: now, transaction: refunded, renewalInfoJWS: nil,
                       status: nil)
            for copy in try transactions("WHERE shared_from = ? AND revocation_date IS NULL", [record.id]) {
                try revokeCopy(copy)
            }
            return
        }
        let revokesSubscription = subscription.latestTransactionID == record.id
        if revokesSubscription {
            subscription.state = .revoked
            subscription.autoRenew = false
            subscription.gracePeriodExpirationDate = nil
            subscription.billingRetryExpirationDate = nil
            subscription.pendingOffer = nil
        }
        try notify(.refund, nil, about: &subscription, at: now, transaction: refunded)
        if revokesSubscription {
            for var copy in try subscriptions("WHERE shared_from = ?", [subscription.originalID]) where copy.isLive {
                try revoke(&copy)
            }
        }
    }

    /// A customer asks the App Store for a refund: the request waits for a decision, and
    /// `CONSUMPTION_REQUEST` (with the customer's reason) asks the developer's server for
    /// consumption information.
    func requestRefund(transactionID: String, reason: ConsumptionRequestReason) throws {
        let record = try requireTransaction(id: transactionID)
        guard record.sharedFrom == nil else { throw LocalStoreError.familySharedTransaction(transactionID: transactionID) }
        guard record.revocationDate == nil else { throw LocalStoreError.alreadyRevoked(transactionID: transactionID) }
        guard try pendingRefundRequest(transactionID: transactionID) == nil else {
            throw LocalStoreError.refundAlreadyRequested(transactionID: transactionID)
        }
        try connection.execute(
            """
            INSERT INTO local_store_refund_request (transaction_id, reason, requested_date, state) VALUES (?, ?, ?, 'pending')
            ON CONFLICT (transaction_id) DO UPDATE SET reason = excluded.reason, requested_date = excluded.requested_date,
                state = 'pending', decided_date = NULL
            """,
            [transactionID, reason.rawValue, now.millisecondsSince1970])
        try notify(.consumptionRequest, nil, customerID: record.customerID, at: now, transaction: record,
                   renewalInfoJWS: nil, status: nil, consumptionRequestReason: reason)
    }

    /// The App Store declines a customer's refund request: `REFUND_DECLINED`.
    func declineRefund(transactionID: String) throws {
        let record = try requireTransaction(id: transactionID)
        guard try pendingRefundRequest(transactionID: transactionID) != nil else {
            throw LocalStoreError.noRefundRequest(transactionID: transactionID)
        }
        try decideRefundRequest(transactionID: transactionID, as: "declined")
        try notify(.refundDeclined, nil, customerID: record.customerID, at: now, transaction: record, renewalInfoJWS: nil, status: nil)
    }

    /// The reason of the customer's undecided refund request of a transaction, if there is one.
    func pendingRefundRequest(transactionID: String) throws -> String? {
        try connection.fetchValue(
            String.self, "SELECT reason FROM local_store_refund_request WHERE transaction_id = ? AND state = 'pending'", [transactionID])
    }

    private func decideRefundRequest(transactionID: String, as state: String) throws {
        try connection.execute(
            "UPDATE local_store_refund_request SET state = ?, decided_date = ? WHERE transaction_id = ? AND state = 'pending'",
            [state, now.millisecondsSince1970, transactionID])
    }
}
