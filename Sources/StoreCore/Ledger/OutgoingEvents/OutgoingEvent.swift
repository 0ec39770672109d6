import Foundation

/// One event of the ledger's outbox: a change reported to the app's backend, stored in the same
/// write as the change, with the exact body every delivery sends.
public struct OutgoingEvent: Sendable, Hashable {
    /// Where an event stands in its delivery.
    public enum DeliveryState: String, Sendable, Hashable, Codable, CaseIterable {
        /// Waiting for its first or its next attempt.
        case pending
        /// A receiver answered `2xx`.
        case delivered
        /// Given up after its last attempt, or refused for good (`410 Gone`); an operator may retry it.
        case failed
        /// Not sent: the delivery takes other types only.
        case skipped
    }

    /// The event's id, `evt_` and 32 hexadecimal digits: the same on every delivery.
    public var id: String
    /// The customer the event is about.
    public var customerID: String
    /// The event's place among the customer's events, from 1.
    public var sequence: Int64
    /// What it reports, as the ledger keeps it: one of ``OutgoingEventType``'s names, or the name
    /// of a type a newer version of StoreRules sharing the ledger wrote.
    public var typeName: String
    /// What it reports; nil for a type a newer version wrote, whose body is delivered as written.
    public var type: OutgoingEventType? { OutgoingEventType(rawValue: typeName) }
    /// When the change was written, in epoch milliseconds.
    public var createdDate: Int64
    /// The JSON every delivery sends, byte for byte.
    public var body: String
    /// Where its delivery stands.
    public var state: DeliveryState
    /// How many attempts were made.
    public var attempts: Int
    /// When the next attempt may start, in epoch milliseconds.
    public var nextAttemptDate: Int64
    /// Until when an instance holds the event to deliver it, in epoch milliseconds.
    public var leaseUntil: Int64
    /// Why the last attempt failed.
    public var lastError: String?
    /// When a receiver accepted it, in epoch milliseconds.
    public var deliveredDate: Int64?
    /// When the current series of attempts began, in epoch milliseconds: when the event was
    /// written, or when an operator sent it again. Delivery gives up counting from it.
    public var attemptsSince: Int64

    /// An event with every field given.
    public init(id: String, customerID: String, sequence: Int64, typeName: String, createdDate: Int64, body: String,
                state: DeliveryState, attempts: Int, nextAttemptDate: Int64, leaseUntil: Int64, lastError: String?,
                deliveredDate: Int64?, attemptsSince: Int64) {
        self.id = id
        self.customerID = customerID
        self.sequence = sequence
        self.typeName = typeName
        self.createdDate = createdDate
        self.body = body
        self.state = state
        self.attempts = attempts
        self.nextAttemptDate = nextAttemptDate
        self.leaseUntil = leaseUntil
        self.lastError = lastError
        self.deliveredDate = deliveredDate
        self.attemptsSince = attemptsSince
    }

    /// A new event id: `evt_` and 128 random bits in hexadecimal, with no `.` (Standard
    /// Webhooks signs `id.timestamp.body`).
    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = Array("evt_".utf8)
        text.reserveCapacity(36)
        for _ in 0..<2 {
            var bits = generator.next() as UInt64
            for _ in 0..<16 {
                text.append(digits[Int(bits & 0xF)])
                bits >>= 4
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
