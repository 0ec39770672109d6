import Foundation
import StoreCore

/// How often and how lately one merchandising event happened to a customer, as a policy sees
/// it: `ctx.customer.events[name] = { count, last, recent }`.
///
/// `last` and `recent` are epoch seconds; `recent` holds the latest times, newest first, at most
/// ``StoreCore/EventSummary/recentLimit``. A policy caps a paywall with them: "at most 3 times a
/// week" counts the `recent` times within the week; "never twice within an hour" compares `last`
/// with `ctx.now`.
public struct EventHistory: Sendable, Equatable, Codable {
    /// How many times it happened.
    public var count: Int
    /// The latest time, if it happened.
    public var last: Date?
    /// The latest times, newest first.
    public var recent: [Date]

    /// Describes a history; `count` defaults to the number of `recent` times, `last` to the first.
    public init(count: Int? = nil, last: Date? = nil, recent: [Date] = []) {
        let newestFirst = recent.sorted(by: >)
        self.recent = Array(newestFirst.prefix(EventSummary.recentLimit))
        self.count = max(count ?? newestFirst.count, self.recent.count)
        self.last = last ?? newestFirst.first
    }

    /// The policy's view of a summary the ledger keeps.
    public init(_ summary: EventSummary) {
        self.init(count: summary.count, last: summary.last, recent: summary.recent)
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case count, last, recent
    }

    /// Reads a history from JSON: `count` (0 or more), `last` and `recent` (epoch seconds),
    /// each optional; an unknown field is refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        let count = try container.decodeIfPresent(Int.self, forKey: .count)
        if let count, count < 0 {
            throw DecodingError.dataCorruptedError(forKey: .count, in: container, debugDescription: "expected a count of 0 or more, found \(count)")
        }
        var recent: [Date] = []
        if container.contains(.recent) {
            var list = try container.nestedUnkeyedContainer(forKey: .recent)
            while !list.isAtEnd {
                let seconds = try list.decode(Double.self)
                guard let date = EpochSeconds.date(seconds) else {
                    throw DecodingError.dataCorruptedError(in: list, debugDescription: "expected epoch seconds (years 1 to 9999), found \(seconds)")
                }
                recent.append(date)
            }
        }
        self.init(count: count, last: try container.decodeEpochSecondsIfPresent(forKey: .last), recent: recent)
    }

    /// Writes the history as JSON with the keys Lua sees.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encodeIfPresent(last.map(EpochSeconds.whole), forKey: .last)
        try container.encode(recent.map(EpochSeconds.whole), forKey: .recent)
    }
}
