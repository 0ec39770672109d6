import StoreCore
import StoreService

/// The line `storerules ledger ingest` prints for one input line: what the service's answer
/// says the ledger did, or why the line failed.
struct LedgerIngestLine: Encodable {
    /// The input line's number, from 1.
    let line: Int
    var transactionID: String?
    var notificationUUID: String?
    /// What happened to the grants, or to the notification when it carries no transaction:
    /// the transaction's outcome (`granted`, `already_finished`, `unfinished`, `revoked`,
    /// `revocation_withdrawn`), else the notification's status (`processed`, `already_processed`).
    var outcome: String?
    /// Why the transaction stays unfinished.
    var reason: String?
    /// What this line granted, reversed or restored.
    var grants: [Grant]?
    var customer: String?
    /// Why the line failed; nothing of it was stored.
    var error: ServiceError?

    /// The line for a failed input line.
    init(line: Int, error: ServiceError) {
        self.line = line
        self.error = error
    }

    /// The line for what the service answered, or nil for an answer ingestion does not give.
    init?(line: Int, answer: ServiceResponse, customer given: String?) {
        switch answer {
        case .transaction(let transaction):
            self.init(line: line, transaction: transaction)
        case .notification(let notification):
            if let transaction = notification.transaction {
                self.init(line: line, transaction: transaction)
            } else {
                self.init(line: line, outcome: notification.status, customer: given)
            }
            notificationUUID = notification.notificationUUID
        case .storefront, .entitlements, .customer, .event, .decision, .retry, .policy, .reload:
            return nil
        }
    }

    /// The line for a notification that carried no transaction to ingest.
    private init(line: Int, outcome: String, customer: String?) {
        self.line = line
        self.outcome = outcome
        grants = []
        self.customer = customer
    }

    /// The line for what ingesting a transaction did.
    init(line: Int, transaction: TransactionAnswer) {
        self.line = line
        transactionID = transaction.transactionID
        outcome = transaction.outcome
        reason = transaction.reason
        grants = transaction.grants
        customer = transaction.customerID
    }

    private enum CodingKeys: String, CodingKey {
        case line, transactionID = "transaction_id", notificationUUID = "notification_uuid", outcome, reason, grants
        case customer, error
    }
}
