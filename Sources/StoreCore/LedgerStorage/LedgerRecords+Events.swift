import Foundation

extension LedgerRecords {
    /// The columns of an event row.
    public static let eventColumns = "customer_id, name, placement, occurred_date"

    /// The query counting a customer's events by name, with the latest time, in the
    /// storage's dialect: `placeholder` is its first parameter (`?` or `$1`).
    public static func eventCountsQuery(placeholder: String) -> String {
        """
        SELECT name, count(*) AS event_count, max(occurred_date) AS last_date FROM merchandising_event
        WHERE customer_id = \(placeholder) GROUP BY name
        """
    }

    /// The query for the latest ``EventSummary/recentLimit`` times of each of a customer's
    /// events, newest first.
    public static func recentEventsQuery(placeholder: String) -> String {
        """
        SELECT name, occurred_date FROM (
            SELECT name, occurred_date,
                   row_number() OVER (PARTITION BY name ORDER BY occurred_date DESC) AS position
            FROM merchandising_event WHERE customer_id = \(placeholder)
        ) AS ranked WHERE position <= \(EventSummary.recentLimit) ORDER BY name, occurred_date DESC
        """
    }

    /// The query for every time of a customer's events, newest first by name: what
    /// ``recentEventsQuery(placeholder:)`` gives when no event has more than
    /// ``EventSummary/recentLimit`` times, without its window.
    public static func allEventsQuery(placeholder: String) -> String {
        """
        SELECT name, occurred_date FROM merchandising_event
        WHERE customer_id = \(placeholder) ORDER BY name, occurred_date DESC
        """
    }

    /// A customer's summaries, read through `fetch` (which runs a query whose one parameter is
    /// written `placeholder`, bound to the customer): the counts first, then the latest times
    /// only when there are any, without a window when no event has more than the recent limit.
    public static func eventSummaries<Row: LedgerRecordRow>(placeholder: String, fetch: (String) throws -> [Row]) throws -> [String: EventSummary] {
        let counts = try fetch(eventCountsQuery(placeholder: placeholder))
        guard !counts.isEmpty else { return [:] }
        let fitsTheLimit = try counts.allSatisfy { try $0.integer("event_count") <= Int64(EventSummary.recentLimit) }
        let recent = try fetch(fitsTheLimit ? allEventsQuery(placeholder: placeholder) : recentEventsQuery(placeholder: placeholder))
        return try eventSummaries(counts: counts, recent: recent)
    }

    /// A customer's summaries from the rows of ``eventCountsQuery(placeholder:)`` and
    /// ``recentEventsQuery(placeholder:)``.
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
