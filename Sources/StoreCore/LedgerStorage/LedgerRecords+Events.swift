import Foundation
import SignedData

extension LedgerRecords {
    /// The columns of an event row.
    public static let eventColumns = "customer_id, name, placement, occurred_date"

    /// The statement counting a customer's events by name, with the latest time.
    public static func eventCountsQuery(customerID: String) -> LedgerSQL {
        """
        SELECT name, count(*) AS event_count, max(occurred_date) AS last_date FROM merchandising_event
        WHERE customer_id = \(customerID) GROUP BY name
        """
    }

    /// The statement for the latest ``EventSummary/recentLimit`` times of each of a customer's
    /// events, newest first.
    public static func recentEventsQuery(customerID: String) -> LedgerSQL {
        """
        SELECT name, occurred_date FROM (
            SELECT name, occurred_date,
                   row_number() OVER (PARTITION BY name ORDER BY occurred_date DESC) AS position
            FROM merchandising_event WHERE customer_id = \(customerID)
        ) AS ranked WHERE position <= \(EventSummary.recentLimit) ORDER BY name, occurred_date DESC
        """
    }

    /// The statement for every time of a customer's events, newest first by name: what
    /// ``recentEventsQuery(customerID:)`` gives when no event has more than
    /// ``EventSummary/recentLimit`` times, without its window.
    public static func allEventsQuery(customerID: String) -> LedgerSQL {
        """
        SELECT name, occurred_date FROM merchandising_event
        WHERE customer_id = \(customerID) ORDER BY name, occurred_date DESC
        """
    }

    /// A customer's summaries from the rows of ``eventCountsQuery(customerID:)`` and
    /// ``recentEventsQuery(customerID:)``.
    public static func eventSummaries(counts: [some LedgerRecordRow], recent: [some LedgerRecordRow]) throws -> [String: EventSummary] {
        var times: [String: [Date]] = [:]
        for row in recent {
            times[try row.text("name"), default: []].append(Date(millisecondsSince1970: try row.integer("occurred_date")))
        }
        var summaries: [String: EventSummary] = [:]
        for row in counts {
            let name = try row.text("name")
            summaries[name] = EventSummary(
                count: Int(try row.integer("event_count")), last: Date(millisecondsSince1970: try row.integer("last_date")),
                recent: times[name] ?? [])
        }
        return summaries
    }

    /// An event from its row.
    public static func event(from row: some LedgerRecordRow) throws -> MerchandisingEvent {
        MerchandisingEvent(customerID: try row.text("customer_id"), name: try row.text("name"),
                           placement: try row.optionalText("placement"), occurredDate: try row.integer("occurred_date"))
    }
}
