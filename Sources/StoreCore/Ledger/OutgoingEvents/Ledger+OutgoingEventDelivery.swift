import Foundation

extension Ledger {
    /// Takes up to `limit` events due at `now` for delivery, each the earliest of its customer's
    /// undelivered events, and holds them until `heldUntil` (epoch milliseconds), so that no other
    /// instance sends them meanwhile (on PostgreSQL, rows another instance is taking are skipped,
    /// `FOR UPDATE SKIP LOCKED`). An instance that stops before it records the attempt leaves the
    /// event to be taken again when the hold ends.
    public func claimOutgoingEvents(at now: Int64, heldUntil: Int64, limit: Int) throws -> [OutgoingEvent] {
        try writing { try $0.claimOutgoingEvents(at: now, heldUntil: heldUntil, limit: limit) }
    }

    /// Records how attempts at events taken until `heldUntil` ended, in one write: each event
    /// delivered, to retry, failed or skipped, its attempts counted and its hold released. An
    /// event whose hold ran out and was taken again by another instance is left to that one.
    public func recordOutgoingEventAttempts(_ attempts: [(id: String, attempt: OutgoingEventAttempt)], heldUntil: Int64) throws {
        guard !attempts.isEmpty else { return }
        try writing { ledger in
            for (id, attempt) in attempts { try ledger.recordOutgoingEventAttempt(id: id, heldUntil: heldUntil, attempt) }
        }
    }

    /// The events `query` selects, the latest first.
    public func outgoingEvents(_ query: OutgoingEventQuery) throws -> [OutgoingEvent] {
        try reading { try $0.outgoingEvents(query) }
    }

    /// Makes the events `query` selects (any state but pending) due again at `now`, with the
    /// same ids and bodies, their attempts counted again from now (so delivery gives up only
    /// after its full time): an operator's retry of failed events, or a replay of delivered ones.
    /// Returns how many.
    @discardableResult
    public func requeueOutgoingEvents(_ query: OutgoingEventQuery, at now: Int64) throws -> Int {
        try writing { try $0.requeueOutgoingEvents(query, at: now) }
    }

    /// Deletes the delivered and skipped events written before `date` (epoch milliseconds), in
    /// writes of at most ``pruneBatch`` each so no write holds the ledger long; pending and
    /// failed events stay, and each customer's next event is numbered after their last as before.
    /// Returns how many were deleted.
    @discardableResult
    public func pruneOutgoingEvents(writtenBefore date: Int64) throws -> Int {
        var deleted = 0
        while true {
            let batch = try writing { try $0.deleteSentOutgoingEvents(writtenBefore: date, limit: Self.pruneBatch) }
            deleted += batch
            if batch < Self.pruneBatch { return deleted }
        }
    }

    /// The most events one write of ``pruneOutgoingEvents(writtenBefore:)`` deletes.
    public static let pruneBatch = 10_000

    /// How the outbox stands at `now` (epoch milliseconds).
    public func outgoingEventBacklog(at now: Int64) throws -> OutgoingEventBacklog {
        try reading { try $0.outgoingEventBacklog(at: now) }
    }
}
