import Foundation
import StoreCore

extension Service {
    /// Makes the refund requests that wait for the grant of a transaction in `results` due now,
    /// when it is settled (granted, or revoked before its grant), and wakes the responder for them.
    func grantsSettled(_ results: [TransactionIngestResult]) throws {
        let settled = results.map(\.transaction).filter(\.isFinished).map(\.id)
        let now = Date().millisecondsSince1970
        if try ledger.hastenConsumptionRequests(transactionIDs: settled, at: now, heldBefore: now + ConsumptionResponder.attemptHold) > 0 {
            wakeConsumptionResponder()
        }
    }
}

extension NotificationIngestResult {
    /// What the notification did with its transaction, when it was processed with one.
    var transactionResult: TransactionIngestResult? {
        if case .processed(let transaction, _) = self { return transaction }
        return nil
    }
}
