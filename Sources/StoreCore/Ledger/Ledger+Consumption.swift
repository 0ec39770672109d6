import Foundation

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
    /// failure and next attempt.
    public func updateConsumptionRequest(_ request: ConsumptionRequestRecord) throws {
        try writing { try $0.updateConsumptionRequest(request) }
    }
}
