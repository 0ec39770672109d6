/// Which outgoing events to list or to send again.
public struct OutgoingEventQuery: Sendable, Hashable {
    /// Only events in this delivery state, when given.
    public var state: OutgoingEvent.DeliveryState?
    /// Only this customer's events, when given.
    public var customerID: String?
    /// Only events with these ids, when not empty.
    public var ids: [String]
    /// Only events written at or after this time, in epoch milliseconds, when given.
    public var since: Int64?
    /// Only events written before this time, in epoch milliseconds, when given.
    public var before: Int64?
    /// At most this many, the latest first when listed.
    public var limit: Int

    /// A query with these conditions.
    public init(state: OutgoingEvent.DeliveryState? = nil, customerID: String? = nil, ids: [String] = [], since: Int64? = nil,
                before: Int64? = nil, limit: Int = 100) {
        self.state = state
        self.customerID = customerID
        self.ids = ids
        self.since = since
        self.before = before
        self.limit = limit
    }
}

/// How the outbox stands at a moment, for metrics and the operator page.
public struct OutgoingEventBacklog: Sendable, Hashable, Codable {
    /// Events waiting for delivery.
    public var pending: Int
    /// Pending events whose first attempt was due more than a minute ago.
    public var late: Int
    /// Events given up.
    public var failed: Int
    /// When the oldest pending event was written, in epoch milliseconds.
    public var oldestPendingDate: Int64?

    /// A backlog with these figures.
    public init(pending: Int, late: Int, failed: Int, oldestPendingDate: Int64?) {
        self.pending = pending
        self.late = late
        self.failed = failed
        self.oldestPendingDate = oldestPendingDate
    }

    private enum CodingKeys: String, CodingKey {
        case pending, late, failed, oldestPendingDate = "oldest_pending_date"
    }
}

/// How one delivery attempt ended, as the outbox records it.
public enum OutgoingEventAttempt: Sendable, Hashable {
    /// The receiver accepted the event at this time (epoch milliseconds).
    case delivered(at: Int64)
    /// The attempt failed; the next may start at this time (epoch milliseconds).
    case retry(error: String, at: Int64)
    /// The attempt failed and no other will be made.
    case failed(error: String)
    /// The event is not of a type the delivery sends.
    case skipped
}

extension OutgoingEventBacklog {
    /// How long after it was written a pending event counts as late: a minute.
    public static let lateAfterMilliseconds: Int64 = 60_000
}
