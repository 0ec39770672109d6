import Foundation

/// Something the app showed or a customer did that a policy may count: a paywall shown at a
/// placement, an offer dismissed. Recorded with ``Ledger/recordEvent(customerID:name:placement:at:)``.
public struct MerchandisingEvent: Sendable, Hashable, Codable {
    /// The longest event name accepted.
    public static let maximumNameLength = 64

    /// The customer.
    public var customerID: String
    /// What happened: `paywall_shown`.
    public var name: String
    /// Where, when the app says: `home`.
    public var placement: String?
    /// When, in epoch milliseconds.
    public var occurredDate: Int64

    /// Describes an event.
    public init(customerID: String, name: String, placement: String?, occurredDate: Int64) {
        self.customerID = customerID
        self.name = name
        self.placement = placement
        self.occurredDate = occurredDate
    }
}

/// How often, and how lately, an event happened to one customer: what a policy caps a
/// paywall's frequency with.
public struct EventSummary: Sendable, Hashable {
    /// How many of ``recent`` a summary keeps at most.
    public static let recentLimit = 50

    /// How many times it happened.
    public var count: Int
    /// The latest time.
    public var last: Date
    /// The latest times, newest first, at most ``recentLimit``.
    public var recent: [Date]

    /// Describes a summary.
    public init(count: Int, last: Date, recent: [Date]) {
        self.count = count
        self.last = last
        self.recent = recent
    }
}
