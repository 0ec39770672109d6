import Foundation
import SignedData

extension Ledger {
    /// Keeps a refund request Apple asked about, unless one with its notification's UUID is
    /// kept; returns whether it is new. Apple may send the notification again: it is kept once.
    @discardableResult
    public func recordConsumptionRequest(_ request: ConsumptionRequestRecord) throws -> Bool {
        try writing { try $0.insertConsumptionRequest(request) }
    }

    /// Every refund request kept, oldest first.
    public func consumptionRequests() throws -> [ConsumptionRequestRecord] {
        try reading { try $0.consumptionRequests() }
    }

    /// The requests waiting for an attempt at `now` (milliseconds since 1970), oldest first.
    public func dueConsumptionRequests(at now: Int64) throws -> [ConsumptionRequestRecord] {
        try reading { try $0.dueConsumptionRequests(at: now) }
    }

    /// Takes a pending request for one attempt: holds it until `heldUntil` (milliseconds since
    /// 1970), so no other process of a fleet attempts it meanwhile. Returns the request as it is
    /// now, or nil when it is not due any more (answered, or taken by another process).
    public func claimConsumptionRequest(notificationUUID: String, at now: Int64, heldUntil: Int64) throws -> ConsumptionRequestRecord? {
        try writing { try $0.claimConsumptionRequest(notificationUUID: notificationUUID, at: now, heldUntil: heldUntil) }
    }

    /// Records how an attempt at a request ended: its state, answer, policy version, attempts,
    /// failure and next attempt; a request that ended is reported as an outgoing event. Only a
    /// pending request takes it: when two attempts race (the first outlived its hold), the
    /// first to end the request is kept and reported, and the other changes nothing.
    ///
    /// - Returns: whether the request was pending and took the update.
    @discardableResult
    public func updateConsumptionRequest(_ request: ConsumptionRequestRecord) throws -> Bool {
        try writing { ledger in
            guard try ledger.updateConsumptionRequest(request) else { return false }
            guard request.state != .pending,
                  let owner = try ledger.ownerOfTransaction(id: request.transactionID, originalID: request.originalTransactionID)
            else { return true }
            try recordOutgoingEvents(
                of: owner, settling: [], cause: OutgoingEventCause(source: .refundRequest), refundRequest: request, in: ledger)
            return true
        }
    }

    /// Makes the requests waiting for these transactions' grants due at `now` (milliseconds since
    /// 1970): what a grant does to a refund request that waits for it. A request an attempt
    /// holds — due again by `heldBefore` — is left to that attempt. Returns how many became due.
    @discardableResult
    public func hastenConsumptionRequests(transactionIDs: some Sequence<String>, at now: Int64, heldBefore: Int64) throws -> Int {
        let transactionIDs = Array(transactionIDs)
        guard !transactionIDs.isEmpty else { return 0 }
        return try writing { ledger in
            try transactionIDs.reduce(0) { $0 + (try ledger.hastenConsumptionRequests(transactionID: $1, at: now, heldBefore: heldBefore)) }
        }
    }

    /// What the ledger delivered of the transaction `transactionID`, read in one transaction:
    /// its grant state, when it was granted and its grants, each marked when reversed.
    public func delivery(ofTransaction transactionID: String) throws -> TransactionDelivery {
        try reading { ledger in
            guard let stored = try ledger.transaction(id: transactionID) else { return .notStored }
            guard stored.grantState == .granted else { return TransactionDelivery(grantState: stored.grantState) }
            let standing = Set(try ledger.unreversedGrants(ofTransaction: transactionID).map(\.position))
            let grants = try ledger.grants(ofTransaction: transactionID).enumerated().map { position, grant in
                TransactionDelivery.DeliveredGrant(item: grant.item, amount: grant.amount, isReversed: !standing.contains(position))
            }
            let granted = try ledger.grantedDate(ofTransaction: transactionID).map(Date.init(millisecondsSince1970:))
            return TransactionDelivery(grantState: .granted, grantedDate: granted, grants: grants)
        }
    }
}
