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
}
