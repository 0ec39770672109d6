import Foundation

/// How a ledger records outgoing events: the clock that decides which periods run, the catalog
/// that gives subscription levels, and the version of the policy deciding now.
///
/// A ledger given one (``Ledger/recordingOutgoingEvents(_:)``) writes, in the same storage
/// transaction as each change of a customer, the events the change makes; every instance
/// writing to one ledger should record them, or the changes it writes are not reported. The
/// closures run inside writes: they must be quick and touch no storage.
public struct OutgoingEventRecording: Sendable {
    /// The time a state is derived at.
    public var clock: @Sendable () -> Date
    /// The catalog, for the groups and levels of subscriptions; nil when there is none.
    public var catalog: @Sendable () -> Catalog?
    /// The version of the policy serving, written on each event.
    public var policyVersion: @Sendable () -> String?

    /// Records events with the state derived at `clock`, the levels of `catalog` and the
    /// version `policyVersion` gives.
    public init(clock: @escaping @Sendable () -> Date = { Date() },
                catalog: @escaping @Sendable () -> Catalog? = { nil },
                policyVersion: @escaping @Sendable () -> String? = { nil }) {
        self.clock = clock
        self.catalog = catalog
        self.policyVersion = policyVersion
    }
}

/// A customer's row beside the outbox: the last sequence number given, the state last
/// reported and when the clock next changes it, held by the write that reads it until it commits.
public struct OutgoingEventStateRow: Sendable, Hashable {
    /// The sequence number of the customer's latest event; 0 before the first.
    public var sequence: Int64
    /// The state last reported, as JSON; nil before the first report.
    public var reported: String?
    /// When the clock next changes the state reported, in epoch milliseconds.
    public var reviewDate: Int64?

    /// A row with these values.
    public init(sequence: Int64, reported: String?, reviewDate: Int64? = nil) {
        self.sequence = sequence
        self.reported = reported
        self.reviewDate = reviewDate
    }
}

/// A customer's row beside the outbox as a copy reads it: the customer and the row.
public struct OutgoingEventStateRecord: Sendable, Hashable {
    /// The customer.
    public var customerID: String
    /// The last sequence number, the state last reported and its review time.
    public var row: OutgoingEventStateRow
    /// When the clock next changes the state, in epoch milliseconds.
    public var reviewDate: Int64? { row.reviewDate }

    /// A record with these values.
    public init(customerID: String, row: OutgoingEventStateRow) {
        self.customerID = customerID
        self.row = row
    }
}

/// A customer's row beside the outbox, held for the write, and what their reported state is
/// derived from, read once the row was held.
public typealias HeldOutgoingEventState = (row: OutgoingEventStateRow, sources: CustomerStateSources)
